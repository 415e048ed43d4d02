/**
 * Deckhand's Node client library.
 * @packageDocumentation
 */
export { Deckhand, type CreateOptions, type CallOptions, type ReplayOptions, type FlowsApi, type FlowPlace } from './client/deckhand';
export { localBrowser, BrowserHandle, type LaunchOptions, type ConnectOptions, type AttachOptions, type PairingInfo } from './client/browser';
export { gridBrowser, type GridLaunchOptions } from './client/grid';
export { EXTENSION_ID } from './client/extension-link';
export { BrowserContext, Page, Locator, type ActOptions, type CallToolOptions, type PageGotoOptions } from './facade/page';
export { PAGE_TOOL_LIMITS, PAGE_TOOL_PREFIX, type CallToolResult, type PageTool, type PageToolsResult } from './protocol/page-tools';
export { DeckhandError, ErrorCode, isDeckhandError } from './protocol/errors';
export { OPTIONAL_URL_SCHEMES, type OptionalUrlScheme } from './protocol/url-policy';
// The built-in list prices (and when they were listed), to read or to extend in `prices`.
export { LISTED_PRICES, PRICES_LISTED, type ModelPrice, type Prices } from './protocol/prices';
export * from './protocol/schemas';
// What a generation callback used as the model receives and answers.
export type { ModelRequest, ModelReply, OutlineLine } from './protocol/model';
export type { CallbackModel, ModelSpec } from './client/models';
// Named flows: a recording saved under a name, replayed with no model.
export { FlowSchema, type Flow, type FlowSummary, type FlowReplayResult } from './protocol/flows';
export type { QaRecording, QaStep } from './protocol/recording';
export type { Variables } from './protocol/variables';
