/**
 * What model calls cost, in US dollars. One price per model, per million tokens: input,
 * output, and input read from the provider's prompt cache. A result's `metadata.costUsd` and
 * the cost counters of `metrics()` are its usage priced here, by the engine, where the usage
 * is known. A caller's own prices (`Deckhand.create({ prices })`, the service's
 * `--prices FILE`) travel with the resolved model and win over this table.
 */
import { z } from 'zod';
import { ModelPriceSchema, type ModelPrice, type ResolvedModel } from './model';
import type { Usage } from './schemas';
import { DeckhandError, ErrorCode } from './errors';

export { ModelPriceSchema, type ModelPrice };

/** Prices by model name as the model is named to Deckhand: `provider/model`, or a callback model's name. */
export const PricesSchema = z.record(z.string().trim().min(1, 'a model name must not be empty'), ModelPriceSchema);
export type Prices = z.infer<typeof PricesSchema>;

const p = (inputPerMTok: number, outputPerMTok: number, cachedInputPerMTok?: number): ModelPrice =>
  cachedInputPerMTok === undefined ? { inputPerMTok, outputPerMTok } : { inputPerMTok, outputPerMTok, cachedInputPerMTok };

/**
 * The providers' list prices, as published on their pricing pages in November 2025: standard
 * (not batch or priority) tier, text, and for Gemini 2.5 Pro prompts up to 200k tokens. Prices
 * change and new models appear: pass `prices` to correct or add one. Dated snapshots
 * (`gpt-4.1-mini-2025-04-14`, `claude-sonnet-4-5-20250929`) take their model's price;
 * `vertex/` Gemini models take Google's list price. Azure deployments, Bedrock models and
 * OpenAI-compatible servers have no list price here.
 */
export const PRICES_LISTED = '2025-11';
export const LISTED_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // OpenAI, https://platform.openai.com/docs/pricing
  'openai/gpt-5.1': p(1.25, 10, 0.125),
  'openai/gpt-5': p(1.25, 10, 0.125),
  'openai/gpt-5-mini': p(0.25, 2, 0.025),
  'openai/gpt-5-nano': p(0.05, 0.4, 0.005),
  'openai/gpt-4.1': p(2, 8, 0.5),
  'openai/gpt-4.1-mini': p(0.4, 1.6, 0.1),
  'openai/gpt-4.1-nano': p(0.1, 0.4, 0.025),
  'openai/gpt-4o': p(2.5, 10, 1.25),
  'openai/gpt-4o-mini': p(0.15, 0.6, 0.075),
  'openai/o3': p(2, 8, 0.5),
  'openai/o4-mini': p(1.1, 4.4, 0.275),
  'openai/o3-mini': p(1.1, 4.4, 0.55),
  'openai/o1': p(15, 60, 7.5),
  // Anthropic, https://docs.claude.com/en/docs/about-claude/pricing (cache reads; cache writes are priced as input here)
  'anthropic/claude-opus-4-5': p(5, 25, 0.5),
  'anthropic/claude-opus-4-1': p(15, 75, 1.5),
  'anthropic/claude-opus-4-0': p(15, 75, 1.5),
  'anthropic/claude-opus-4-20250514': p(15, 75, 1.5),
  'anthropic/claude-sonnet-4-5': p(3, 15, 0.3),
  'anthropic/claude-sonnet-4-0': p(3, 15, 0.3),
  'anthropic/claude-sonnet-4-20250514': p(3, 15, 0.3),
  'anthropic/claude-haiku-4-5': p(1, 5, 0.1),
  // Google (Gemini Developer API), https://ai.google.dev/gemini-api/docs/pricing
  'google/gemini-2.5-pro': p(1.25, 10, 0.125),
  'google/gemini-2.5-flash': p(0.3, 2.5, 0.03),
  'google/gemini-2.5-flash-lite': p(0.1, 0.4, 0.01),
  'google/gemini-2.0-flash': p(0.1, 0.4, 0.025),
  'google/gemini-2.0-flash-lite': p(0.075, 0.3),
});

/** The built-in local model runs in the browser: it costs nothing. */
export const FREE: ModelPrice = Object.freeze({ inputPerMTok: 0, outputPerMTok: 0, cachedInputPerMTok: 0 });

/** `prices` checked, or INVALID_ARGUMENT naming the entry at fault. */
export function parsePrices(v: unknown, what = 'prices'): Prices {
  const r = PricesSchema.safeParse(v);
  if (r.success) return r.data;
  const parts = r.error.issues.map((i) => {
    // The entry by its model name, then the field: "openai/gpt-4.1-mini".outputPerMTok.
    const [name, ...rest] = i.path;
    const where = name === undefined ? what : `${JSON.stringify(name)}${rest.length ? `.${rest.join('.')}` : ''}`;
    if (i.code === 'unrecognized_keys') return `${where}: unknown ${i.keys.length > 1 ? 'properties' : 'property'} ${i.keys.map((k) => `'${k}'`).join(', ')}`;
    return `${where}: ${i.message}`;
  });
  throw new DeckhandError(
    ErrorCode.InvalidArgument,
    `invalid ${what}: ${parts.join('; ')} (give each model as { inputPerMTok, outputPerMTok, cachedInputPerMTok? }, US dollars per million tokens)`,
  );
}

/** A date at the end of a model id: -2025-04-14 (OpenAI) or -20250929 (Anthropic). */
const SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * The names a model's price may be listed under, most specific first: its name as given, the
 * same with the provider in lower case, the model without its snapshot date, and for Vertex
 * the Gemini API's name.
 */
export function priceNames(name: string): string[] {
  const out = [name];
  const i = name.indexOf('/');
  if (i > 0) {
    const provider = name.slice(0, i).toLowerCase();
    const id = name.slice(i + 1);
    const providers = provider === 'vertex' ? [provider, 'google'] : [provider];
    const ids = SNAPSHOT.test(id) ? [id, id.replace(SNAPSHOT, '')] : [id];
    for (const pr of providers) for (const m of ids) out.push(`${pr}/${m}`);
  }
  return [...new Set(out)];
}

/** `name`'s price in `table`, if it lists one. */
export function findPrice(name: string, table: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined {
  for (const n of priceNames(name)) if (Object.hasOwn(table, n)) return table[n];
  return undefined;
}

/**
 * What the engine prices a call with: the local model is free; otherwise the price the model
 * carries (the caller's own), else a provider model's list price; undefined when unknown (a
 * callback model, a model no list has).
 */
export function priceOf(model: ResolvedModel): ModelPrice | undefined {
  if (model.kind === 'local') return FREE;
  if (model.price) return model.price;
  return model.kind === 'provider' ? findPrice(model.name, LISTED_PRICES) : undefined;
}

/** USD rounded to 1e-12 (a hundred-millionth of a cent), so sums read as written (no 0.30000000000000004). */
export const roundUsd = (usd: number): number => Math.round(usd * 1e12) / 1e12;

/**
 * What `usage` cost at `price`: input not read from the cache at the input price, cached input
 * at its own, output (reasoning included, as providers count it) at the output price.
 */
export function usageCost(usage: Usage, price: ModelPrice): number {
  const cached = Math.min(Math.max(usage.cachedInputTokens, 0), Math.max(usage.inputTokens, 0));
  const fresh = Math.max(usage.inputTokens, 0) - cached;
  const usd = fresh * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok) + Math.max(usage.outputTokens, 0) * price.outputPerMTok;
  return roundUsd(usd / 1_000_000);
}

/**
 * What `usage` cost with `model`: nothing for usage with no model work in it (no tokens and no
 * inference time: a replay that healed nothing); undefined when the model's price is unknown.
 */
export function costOf(usage: Usage, model: ResolvedModel): number | undefined {
  if (!(usage.inputTokens > 0 || usage.outputTokens > 0 || usage.inferenceTimeMs > 0)) return 0;
  const price = priceOf(model);
  return price ? usageCost(usage, price) : undefined;
}
