/** Deckhand's Node client library. */
export { Deckhand, type CreateOptions, type CallOptions } from './client/deckhand';
export { localBrowser, BrowserHandle, type LaunchOptions, type ConnectOptions, type AttachOptions, type PairingInfo } from './client/browser';
export { gridBrowser, type GridLaunchOptions } from './client/grid';
export { EXTENSION_ID } from './client/extension-link';
export { BrowserContext, Page, Locator, type ActOptions, type PageGotoOptions } from './facade/page';
export { DeckhandError, ErrorCode, isDeckhandError } from './protocol/errors';
export { OPTIONAL_URL_SCHEMES, type OptionalUrlScheme } from './protocol/url-policy';
// The built-in list prices (and when they were listed), to read or to extend in `prices`.
export { LISTED_PRICES, PRICES_LISTED, type ModelPrice, type Prices } from './protocol/prices';
export * from './protocol/schemas';
// What a generation callback used as the model receives and answers.
export type { ModelRequest, ModelReply, OutlineLine } from './protocol/model';
export type { CallbackModel, ModelSpec } from './client/models';
