/**
 * Flows in a tenant's own cache store, for the HTTP service (`/v1/flows/{name}`): one entry per
 * flow, op 'flow', under flowKey(name), the key the worker looks up first when a replay names a
 * flow. The worker keeps a client's store flows the same way (src/protocol/flows.ts holds the
 * rule for both); the store is already scoped to one tenant, so one key never sees another's flows.
 *
 * A flow is an entry like any other: the store's bound per tenant applies, and a tenant with
 * more entries than the bound loses its least recently used ones first (a replay by name uses it).
 */
import { deleteStoredFlow, getStoredFlow, putStoredFlow, type Flow } from '../protocol/flows';
import type { CacheStore } from './cache/store';

/** Store (or replace) `flow` under its name. */
export const putFlow = (store: CacheStore, flow: Flow): Promise<void> => putStoredFlow(store, flow);
/** The flow stored under `name`, or null. */
export const getFlow = (store: CacheStore, name: string): Promise<Flow | null> => getStoredFlow(store, name);
/** Remove the flow stored under `name`; whether there was one. */
export const deleteFlow = (store: CacheStore, name: string): Promise<boolean> => deleteStoredFlow(store, name);
