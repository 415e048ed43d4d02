/** A file removed through a terminal drawn on the page: how the task is said, and what a shell answers. */
import { type Phrases } from './grammar';

/** What the page's command line is called ("use the terminal below to ..."). */
export const TERMINALS: Phrases = ['terminal', 'command line', 'command prompt', 'shell', 'console'];
/** Where it is, said after its name. */
export const TERMINAL_PLACES: Phrases = ['below', 'above', 'on the page', 'shown', 'here', 'on this page'];
export const REMOVE_FILE_VERBS: Phrases = ['delete', 'remove', 'erase', 'get rid of', 'rm'];
/** "a file ending with the extension .gif": the words before the extension. */
export const ENDS_WITH: Phrases = ['(?:that |which )?(?:ends?|ending) (?:with|in)', 'whose name ends (?:with|in)'];
export const STARTS_WITH: Phrases = ['(?:that |which )?(?:starts?|starting|begins?|beginning) with', 'whose name (?:starts|begins) with'];
export const NAMED: Phrases = ['named', 'called', 'with the name'];
export const EXTENSION_NOUNS: Phrases = ['(?:file )?extension', 'suffix', 'file type'];
/** The commands typed: the one that lists the files, and the one that removes a file. */
export const SHELL_COMMANDS = { list: 'ls', remove: 'rm' } as const;
/** A shell's answer when a command failed: the run stops there (never "error" alone, a file may be called error.log). */
export const SHELL_ERRORS: Phrases = ['not found', 'no such file', 'cannot', "can't", 'permission denied', 'unknown command', 'not recognized', 'usage'];
