/** Trips and bookings: "book the cheapest one-way flight from Boston to Denver on 12/03". */
import { type Phrases } from './grammar';

/** Verbs that ask for a trip to be booked, and those that only ask for it to be found. */
export const BOOK_VERBS: Phrases = ['book', 'buy', 'order', 'reserve', 'purchase', 'get'];
export const FIND_VERBS: Phrases = ['find', 'search for', 'look for', 'show me', 'look up'];
/** What is travelled on. */
export const TRIP_NOUNS: Phrases = ['flights?', 'trains?', 'tickets?', 'trips?', 'bus(?:es)?', 'fares?', 'rides?', 'journeys?', 'coach(?:es)?'];
/** One way or there and back. */
export const ONE_WAY: Phrases = ['one-?way', 'one way', 'single'];
export const ROUND_TRIP: Phrases = ['round-?trip', 'round trip', 'return'];
/** Words before the date ("on 12/03", "departing on Friday"). */
export const DATE_LEADS: Phrases = ['on', 'for', 'departing(?: on)?', 'leaving(?: on)?', 'dated'];
/** "... and book it": the result found is booked. */
export const BOOK_IT: Phrases = ['it', 'that one', 'that', 'the flight', 'the ticket', 'the trip'];
/** "... and choose the cheapest one": verbs that take one of the results found, and what a result is called then. */
export const PICK_VERBS: Phrases = ['choose', 'select', 'pick', 'take'];
export const RESULT_NOUNS: Phrases = ['one', 'flights?', 'tickets?', 'trips?', 'options?', 'results?', 'fares?', 'trains?'];

/** What a superlative measures, said after it ("the ticket with the cheapest cost", "the shortest duration"). */
export const RESULT_MEASURES: Phrases = [
  'cost',
  'price',
  'fare',
  'duration',
  'travel time',
  'flight time',
  'journey time',
  'time',
  'departure',
  'departure time',
];

/** The fields of a trip search by their names on the page (whole names, punctuation aside). */
export const FROM_FIELDS: Phrases = ['from', 'origin', 'leaving from', 'departing from', 'departure city', 'departure airport', 'flying from', 'depart from'];
export const TO_FIELDS: Phrases = ['to', 'destination', 'going to', 'arriving at', 'arrival city', 'arrival airport', 'flying to', 'arrive at'];
/** A return journey's date field: a form with none, and no choice of the way, searches one-way trips only. */
export const RETURN_FIELDS: Phrases = ['return', 'return date', 'return on', 'returning', 'returning on', 'inbound'];
export const DATE_FIELDS: Phrases = ['depart', 'departure', 'departure date', 'depart date', 'date', 'outbound', 'travel date', 'leaving on', 'departing'];
/** A result's control that books it. */
export const BOOK_CONTROLS: Phrases = ['book', 'book now', 'select', 'choose', 'reserve', 'buy', 'buy now', 'book flight', 'select flight'];

/** Superlatives a trip result is chosen by: what is compared, and which end wins. */
export const RESULT_ORDERS: Readonly<Record<string, { by: 'price' | 'time' | 'duration'; least: boolean }>> = {
  cheapest: { by: 'price', least: true },
  'least expensive': { by: 'price', least: true },
  'lowest priced': { by: 'price', least: true },
  'most expensive': { by: 'price', least: false },
  earliest: { by: 'time', least: true },
  latest: { by: 'time', least: false },
  shortest: { by: 'duration', least: true },
  fastest: { by: 'duration', least: true },
  quickest: { by: 'duration', least: true },
  longest: { by: 'duration', least: false },
  slowest: { by: 'duration', least: false },
};
