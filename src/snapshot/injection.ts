/**
 * Names a person never sees (aria-label, title, alt, text hidden from the screen) reach a model
 * marked `namefrom=...`, cut short. A page can still put a short instruction to an AI in one
 * ("Ignore previous instructions and ..."): such a name is withheld, and the line says so.
 * The patterns ask for phrasing addressed to a model or about its instructions, so the labels
 * of real controls ("Ignore", "Instructions", "System settings", "New message") never match.
 */
const PATTERNS: RegExp[] = [
  // "ignore / disregard / forget (all) (the) previous instructions", "override your rules"
  /\b(ignore|disregard|forget|override|bypass)\b[\s\S]{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|these|those|system)\b[\s\S]{0,20}\b(instructions?|prompts?|rules|directions|directives|guidelines|guardrails|messages?|context)\b/i,
  // a role prefix, as a chat transcript writes it: "SYSTEM:", "Assistant:", "[INST]", "<|im_start|>"
  /^\s*[[(<]?\s*(system|assistant|developer)\s*[\])>]?\s*:/i,
  /\[\/?INST\]|<\|im_(start|end)\|>|<\/?(system|assistant)>/i,
  // talking to the model about itself
  /\b(system prompt|developer message|new instructions?|updated instructions?|hidden instructions?)\b/i,
  /\byou are (now )?(an? |the )?([a-z-]+ )?(ai|assistant|language model|llm|chatbot|agent|bot)\b/i,
  /\b(ai|llm|language model|assistant|agent|chatbot)s?\b[\s\S]{0,40}\b(must|should|are required to|are instructed to|need to)\b/i,
  /\bdo not (tell|inform|reveal|mention|alert|warn)\b[\s\S]{0,30}\b(the )?(user|human|person|operator)\b/i,
];

/** Whether text reads as instructions addressed to an AI model. */
export function readsAsInstructions(text: string): boolean {
  return PATTERNS.some((p) => p.test(text));
}

/**
 * What a withheld name is printed as, with `namefrom=<source>:instructions-withheld`: no words a
 * person's instruction could match, so no model picks the element by what it was called.
 */
export const WITHHELD_NAME = '[withheld]';
export const WITHHELD_FROM = ':instructions-withheld';
