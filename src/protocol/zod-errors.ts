import type { ZodError } from 'zod';

/** Zod issues as one readable sentence naming each offending field. */
export function describeZodError(e: ZodError, what: string): string {
  const parts = e.issues.map((i) => {
    const path = i.path.length ? i.path.join('.') : what;
    if (i.code === 'unrecognized_keys') {
      const keys = i.keys.map((k) => `'${k}'`).join(', ');
      return `unknown ${i.keys.length > 1 ? 'properties' : 'property'} ${keys}${i.path.length ? ` in ${i.path.join('.')}` : ''}`;
    }
    return `${path}: ${i.message}`;
  });
  return `invalid ${what}: ${parts.join('; ')}`;
}
