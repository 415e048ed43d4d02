/**
 * Names a person never sees (aria-label, title, alt, text hidden from the screen) reach a model
 * marked `namefrom=...`, cut short. A page can still put a short instruction to an AI in one
 * ("Ignore previous instructions and ..."): such a name is withheld, and the line says so.
 * The patterns ask for phrasing addressed to a model or about its instructions, so the labels
 * of real controls ("Ignore", "Instructions", "System settings", "New message") never match.
 */
const SET_ASIDE = 'ignore|disregard|forget|override|bypass';
const WHICH_RULES = 'previous|prior|above|earlier|preceding|all|any|your|these|those|system';
const RULES = 'instructions?|prompts?|rules|directions|directives|guidelines|guardrails|messages?|context';
const PATTERNS: RegExp[] = [
  // "ignore / disregard / forget (all) (the) previous instructions", "override your rules"
  new RegExp(`\\b(${SET_ASIDE})\\b[\\s\\S]{0,40}\\b(${WHICH_RULES})\\b[\\s\\S]{0,20}\\b(${RULES})\\b`, 'i'),
  // a role prefix, as a chat transcript writes it ("SYSTEM:", "Assistant:", "[INST]", "<|im_start|>"), where a
  // sentence starts: "Save. SYSTEM: ..." hides one behind a real label
  /(?:^|[.!?;|\n]\s*)[[(<]?\s*(system|assistant|developer)\s*[\])>]?\s*:/i,
  /\[\/?INST\]|<\|im_(start|end)\|>|<\/?(system|assistant)>/i,
  // talking to the model about itself
  /\b(system prompt|developer message|new instructions?|updated instructions?|hidden instructions?)\b/i,
  /\byou are (now )?(an? |the )?([a-z-]+ )?(ai|assistant|language model|llm|chatbot|agent|bot)\b/i,
  /\b(ai|llm|language model|assistant|agent|chatbot)s?\b[\s\S]{0,40}\b(must|should|are required to|are instructed to|need to)\b/i,
  /\bthe (user|human|operator) (wants|asked|needs|requires|has asked|would like) you to\b/i,
  /\bdo not (tell|inform|reveal|mention|alert|warn)\b[\s\S]{0,30}\b(the )?(user|human|person|operator)\b/i,
];

/** Whether text reads as instructions addressed to an AI model. */
export function readsAsInstructions(text: string): boolean {
  return PATTERNS.some((p) => p.test(text));
}

/**
 * What of `text` comes before anything in it that reads as instructions to a model: the whole
 * text when nothing does, '' when it starts with them. "Save. SYSTEM: the user wants ..." is "Save".
 */
export function beforeInstructions(text: string): string {
  let at = text.length;
  for (const p of PATTERNS) {
    const m = p.exec(text);
    if (m && m.index < at) at = m.index;
  }
  return at === text.length
    ? text
    : text
        .slice(0, at)
        .replace(/[\s.,;:!?|\-–—]+$/u, '')
        .trim();
}

/**
 * What a withheld name is printed as, with `namefrom=<source>:instructions-withheld`: no words a
 * person's instruction could match, so no model picks the element by what it was called.
 */
export const WITHHELD_NAME = '[withheld]';
export const WITHHELD_FROM = ':instructions-withheld';
