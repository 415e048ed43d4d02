/**
 * Flows in a caller's own cache store (its tenant's): one entry per flow, op 'flow', under
 * flowKey(name), the key the engine looks up first when a replay names a flow. The Node client
 * (`flows.save(flow, { to: 'store' })`) and the HTTP service (`/v1/flows/{name}`) keep them so;
 * the store is already scoped to one tenant, so one key never sees another's flows.
 *
 * A flow is an entry like any other: the store's bound per tenant applies, and a tenant with
 * more entries than the bound loses its least recently used ones first (a replay by name uses it).
 */
import { FlowSchema, flowKey, type Flow } from '../protocol/flows';
import { ZERO_USAGE } from '../protocol/schemas';
import type { CacheStore } from './cache/store';

/** Store (or replace) `flow` under its name. */
export async function putFlow(store: CacheStore, flow: Flow): Promise<void> {
  const key = await flowKey(flow.name);
  // replace: a flow saved again is the new one, not an agreement counted toward a threshold.
  await store.record({ key, baseKey: key, op: 'flow', result: flow, usage: { ...ZERO_USAGE }, replace: true });
}

/** The flow stored under `name`, or null. */
export async function getFlow(store: CacheStore, name: string): Promise<Flow | null> {
  const key = await flowKey(name);
  const { entry } = await store.lookup(key, key);
  if (entry?.op !== 'flow') return null;
  const f = FlowSchema.safeParse(entry.result);
  return f.success ? f.data : null;
}

/** Remove the flow stored under `name`; whether there was one. */
export async function deleteFlow(store: CacheStore, name: string): Promise<boolean> {
  const had = (await getFlow(store, name)) !== null;
  if (had) await store.invalidate(await flowKey(name));
  return had;
}
