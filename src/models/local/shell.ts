/**
 * "Use the terminal below to delete a file ending with the extension .gif": the planner's
 * reading of a file removed through a command line the page draws, and the reading of what that
 * command line prints. The commands are the agent's (list, remove, list again to see it gone).
 */
import { SAID_ROLES, type OutlineNode } from './outline';
import { anyOf, either } from './words/grammar';
import { ENDS_WITH, EXTENSION_NOUNS, NAMED, REMOVE_FILE_VERBS, SHELL_ERRORS, STARTS_WITH, TERMINAL_PLACES, TERMINALS } from './words/shell';

/** Which file: its whole name, or how it begins or ends (an extension keeps its dot). */
export interface FileSpec {
  name?: string;
  starts?: string;
  ends?: string;
}

const T = `the (?:${either(TERMINALS)})(?: (?:${either(TERMINAL_PLACES)}))?`;
/** "Use the terminal below to ...", "In the terminal, ...", "... using the terminal". */
const LEAD = new RegExp(`^(?:use|using|with|in|from|through|on|open) ${T}(?:,? (?:to|and))?,? `, 'i');
const TRAIL = new RegExp(` (?:in|using|with|from|through|on|via) ${T}$`, 'i');
const VERB = new RegExp(`^(?:${either(REMOVE_FILE_VERBS)}) `, 'i');
const FILE_NAME = String.raw`[\w@+~-][\w.@+~-]*`;
/** An extension, of one part or more (".gif", "tar.gz"). */
const EXT = String.raw`\.?[A-Za-z0-9]{1,10}(?:\.[A-Za-z0-9]{1,10})*`;
const A = '(?:a|the|one|any) ';
/** The file as the instruction describes it, each form with what it captures. */
const FORMS: [RegExp, keyof FileSpec][] = [
  [new RegExp(`^${A}file (?:${either(ENDS_WITH)}) (?:the |an? )?(?:(?:${either(EXTENSION_NOUNS)}) )?(${EXT})$`, 'i'), 'ends'],
  [new RegExp(`^${A}file with (?:the |an? )?(?:${either(EXTENSION_NOUNS)}) (${EXT})$`, 'i'), 'ends'],
  [new RegExp(`^${A}file with (?:the |an? )?(\\.${EXT}) (?:${either(EXTENSION_NOUNS)})$`, 'i'), 'ends'],
  [new RegExp(`^${A}(\\.${EXT}) file$`, 'i'), 'ends'],
  [new RegExp(`^${A}file (?:${either(STARTS_WITH)}) (${FILE_NAME})$`, 'i'), 'starts'],
  [new RegExp(`^(?:the )?file (?:(?:${either(NAMED)}) )?(${FILE_NAME}\\.[A-Za-z0-9]{1,10})$`, 'i'), 'name'],
  [new RegExp(`^(?:the )?file (?:${either(NAMED)}) (${FILE_NAME})$`, 'i'), 'name'],
  [new RegExp(`^(${FILE_NAME}\\.[A-Za-z0-9]{1,10})$`, 'i'), 'name'],
];

/**
 * A whole instruction that removes one file through the page's terminal, or null. The terminal
 * must be named: a page's own file list with Delete buttons is not a command line.
 */
export function fileToRemove(s: string): FileSpec | null {
  let t = s
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/["“”']/g, '');
  const lead = LEAD.test(t);
  // The terminal named once, before the task or after it.
  if (lead === TRAIL.test(t)) return null;
  t = t.replace(lead ? LEAD : TRAIL, '').trim();
  const verb = VERB.exec(t);
  if (!verb) return null;
  const what = t.slice(verb[0].length);
  for (const [re, key] of FORMS) {
    const m = re.exec(what);
    if (!m) continue;
    const v = m[1]!;
    return { [key]: key === 'ends' && !v.startsWith('.') ? `.${v}` : v };
  }
  return null;
}

export const describeFile = (f: FileSpec): string =>
  f.name ? `the file ${f.name}` : f.ends ? `the file ending with ${f.ends}` : `the file starting with ${f.starts}`;

export const fits = (f: FileSpec) => (file: string) =>
  f.name ? file === f.name : f.ends ? file.toLowerCase().endsWith(f.ends.toLowerCase()) : file.startsWith(f.starts!);

/**
 * The lines the terminal printed for a command: the page's lines now, less as many of each as
 * it showed before (a listing printed twice is new the second time), less the echo of the
 * command itself.
 */
export function printed(before: OutlineNode[], after: OutlineNode[], command: string): string[] {
  // The echo is the command after the prompt ("user$ ls"), never a line that merely ends so ("budget.xls").
  const echo = new RegExp(`(?:^|[\\s$>#%:])${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const seen = new Map<string, number>();
  const said = (nodes: OutlineNode[]) => nodes.filter((n) => SAID_ROLES.has(n.role)).map((n) => n.name.trim());
  for (const line of said(before)) seen.set(line, (seen.get(line) ?? 0) + 1);
  const out: string[] = [];
  for (const line of said(after)) {
    const n = seen.get(line) ?? 0;
    if (n > 0) seen.set(line, n - 1);
    else if (line && !echo.test(line)) out.push(line);
  }
  return out;
}

const FAILED = anyOf(SHELL_ERRORS);
/** The line saying a command failed, if one does. */
export const failure = (lines: string[]): string | undefined => lines.find((l) => FAILED.test(l));

const FILE_TOKEN = new RegExp(`^${FILE_NAME}$`);
/** The file names a listing shows, in its order. */
export const filesIn = (lines: string[]): string[] => lines.flatMap((l) => l.split(/\s+/)).filter((w) => FILE_TOKEN.test(w));
