/**
 * The engine: one in-process implementation of every command in
 * protocol/methods.ts. The worker's RPC peer and (later) experimentalBatch both
 * call `engine.call`, so every transport gets the same behaviour and validation.
 */
import { ZodError } from 'zod';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { Methods, type CommandClient, type MethodName, type Params, type Result } from '../protocol/methods';
import { ActionSchema, DEFAULTS, ZERO_USAGE, type ActResult, type PageInfo } from '../protocol/schemas';
import { performAction, validateAction } from './actions';
import { countTarget } from './frames';
import { MetricsBook } from './metrics';
import { evaluate, goto, screenshot, withDeadline } from './pages';
import type { BrowserPort } from './ports';
import { captureSnapshot, selectorsForIds } from './snapshot';

export const ENGINE_VERSION = '0.1.0';

type Handler = (params: any) => Promise<unknown>;

/** Zod issues as one readable sentence naming each offending field. */
export function describeZodError(e: ZodError, what: string): string {
  const parts = e.issues.map((i) => {
    const path = i.path.length ? i.path.join('.') : what;
    if (i.code === 'unrecognized_keys') return `unknown ${i.keys.length > 1 ? 'properties' : 'property'} ${i.keys.map((k) => `'${k}'`).join(', ')}${i.path.length ? ` in ${i.path.join('.')}` : ''}`;
    return `${path}: ${i.message}`;
  });
  return `invalid ${what}: ${parts.join('; ')}`;
}

export class Engine implements CommandClient {
  readonly metricsBook = new MetricsBook();
  private readonly handlers: Record<MethodName, Handler>;

  constructor(
    private readonly port: BrowserPort,
    private readonly extensionId: string,
  ) {
    this.handlers = {
      'engine.ping': async () => ({ version: ENGINE_VERSION, extensionId: this.extensionId }),
      'context.pages': async () => this.port.listPages(),
      'context.activePage': async () => this.activePage(),
      'context.newPage': async (p: Params<'context.newPage'>) => {
        const info = await this.port.createPage();
        return p.url ? goto(this.port, info.id, p.url, { timeout: p.timeout }) : info;
      },
      'page.goto': async (p: Params<'page.goto'>) => goto(this.port, p.page, p.url, p.options),
      'page.info': async (p: Params<'page.info'>) => this.port.pageInfo(p.page),
      'page.close': async (p: Params<'page.close'>) => {
        await this.port.closePage(p.page);
        return { closed: true };
      },
      'page.bringToFront': async (p: Params<'page.bringToFront'>) => {
        await this.port.bringToFront(p.page);
        return this.port.pageInfo(p.page);
      },
      'page.evaluate': async (p: Params<'page.evaluate'>) => ({
        value: await evaluate(this.port, p.page, p.source, p.isFunction, p.arg, p.timeout ?? DEFAULTS.navigationTimeoutMs),
      }),
      'page.screenshot': async (p: Params<'page.screenshot'>) => screenshot(this.port, p.page, p.options),
      'page.snapshot': async (p: Params<'page.snapshot'>) =>
        captureSnapshot(this.port, p.page ?? (await this.activePage()).id, {
          locator: p.locator,
          ignoreLocators: p.ignoreLocators,
          budget: p.budget,
          timeoutMs: p.timeout,
        }),
      'page.selectors': async (p: Params<'page.selectors'>) => selectorsForIds(this.port, p.page, p.ids),
      'locator.count': async (p: Params<'locator.count'>) => ({ count: await countTarget(this.port, p.page, p.locator.selector, 10_000) }),
      'locator.act': async (p: Params<'locator.act'>) =>
        validateAction(p.method, p.arguments ?? []) &&
        performAction(this.port, p.page, { selector: p.locator.selector, nth: p.locator.nth }, p.method, p.arguments ?? [], p.timeout ?? DEFAULTS.actionTimeoutMs),
      act: async (p: Params<'act'>) => this.act(p),
      observe: async () => this.noModel('observe'),
      extract: async () => this.noModel('extract'),
      metrics: async () => this.metricsBook.snapshot(),
    };
  }

  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    const def = Methods[method];
    if (!def) throw new DeckhandError(ErrorCode.ProtocolError, `unknown method '${String(method)}'`);
    const parsed = def.params.safeParse(params ?? {});
    if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, `${method} parameters`));
    return (await this.handlers[method](parsed.data)) as Result<M>;
  }

  private async activePage(): Promise<PageInfo> {
    const p = await this.port.activePage();
    if (p) return p;
    return this.port.createPage();
  }

  private noModel(op: string): never {
    throw new DeckhandError(
      ErrorCode.NoModelConfigured,
      `${op} with an instruction needs a model, and no model is configured; pass an Action ({ selector, method, arguments }) to act for a deterministic action`,
    );
  }

  private async act(p: Params<'act'>): Promise<ActResult> {
    if (typeof p.input === 'string') return this.noModel('act');
    const parsed = ActionSchema.safeParse(p.input);
    if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, 'Action'));
    const action = parsed.data;
    const opts = p.options ?? {};
    const args = action.arguments ?? [];
    const method = validateAction(action.method, args); // before any page is looked up or opened
    const page = opts.page ?? (await this.activePage()).id;
    const timeout = opts.timeout ?? DEFAULTS.actionTimeoutMs;
    const { element } = await performAction(this.port, page, { selector: action.selector, frameId: opts.frameId }, method, args, timeout);
    return {
      data: {
        success: true,
        message: `${method} performed on ${element}`,
        actionDescription: action.description,
        actions: [{ ...action, method, arguments: args }],
      },
      metadata: { actionId: crypto.randomUUID(), cache: { status: 'DISABLED' }, usage: { ...ZERO_USAGE } },
    };
  }
}
