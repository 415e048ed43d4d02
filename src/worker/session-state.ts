/**
 * Small state the engine keeps across a stopped worker (metrics, the page-to-tab map), in session
 * storage: it survives the worker being stopped and is gone when the browser closes; never sync
 * storage. Every isolated context's worker shares it with the others: each keeps its state under
 * a tag of its own, kept in its context's IndexedDB (which is the context's alone).
 */
import type { StatePort } from '../engine/ports';

export function sessionState(): StatePort {
  const prefix = chrome.extension.inIncognitoContext ? contextTag().then((t) => `ctx:${t}:`) : Promise.resolve('');
  return {
    load: async (key: string) => {
      const k = (await prefix) + key;
      return (await chrome.storage.session.get(k))[k];
    },
    save: async (key: string, value: unknown) => chrome.storage.session.set({ [(await prefix) + key]: value }),
  };
}

/** This context's tag: made once and kept in its IndexedDB, so its worker finds it after a restart. */
function contextTag(): Promise<string> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('deckhand-context', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('tag');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction('tag', 'readwrite');
      const store = tx.objectStore('tag');
      const get = store.get('tag');
      get.onsuccess = () => {
        const tag = (get.result as string | undefined) ?? crypto.randomUUID();
        if (!get.result) store.put(tag, 'tag');
        tx.oncomplete = () => resolve(tag);
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}
