/**
 * Public key of the Deckhand extension. Chromium derives the extension id from
 * it, so the id is the same wherever the unpacked extension is loaded from.
 * (Only the public half exists; unpacked extensions need no private key.)
 */
export const EXTENSION_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3OYy4d7PFrut2FhSCpDxjVunS8NaOgWEfRCa0p8/Ah03wpwRv5t9KGkS' +
  '1tUOUvU/XhlqpxKKiwraAmygjXueHqVehRk1AYl2lu+kDJmYiYkoD2beFMdSPjm0Ra3DZvBNPkLPhoE7MEUFTi8J0STE7u1DHqnX' +
  'Kj/K6jV5fJ/3455dXweVLD3hobfggCYpNoXfudSzrqa7a+ryBKnTZLtJE0qyPlPWHLPObFU0wiWlcL0nAs4yf82wSwQlatflxi4d' +
  'EfSumWFAXR8RYv1RePupEXfsegURL4I/gSQITbw1OtYPgc1veO+Pd1BLn+g8QOgpWk8NYBNMguaz730kCxU30QIDAQAB';
