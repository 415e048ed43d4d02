/**
 * Consent asked for as a goal ("Acknowledge the content warning", "Prove you're human by agreeing to our terms"): the
 * page's one box that says so ticked, and its one control that goes on clicked; never one that goes back.
 */
import { type Phrases } from './grammar';

/** Verbs that give consent to something named after them. */
export const CONSENT_VERBS: Phrases = ['acknowledge', 'accept', 'agree to', 'consent to', 'confirm', 'read and accept', 'read and agree to'];
/** What consent is given to ("the content warning", "our terms of service"). */
export const CONSENTED: Phrases = [
  '(?:content |age |safety |security |legal )?(?:warning|notice|disclaimer)s?',
  'terms(?: of (?:service|use))?(?: and conditions)?',
  '(?:terms and )?conditions',
  '(?:user |licen[cs]e )?agreement',
  '(?:privacy |cookie )?policy',
];
/**
 * Content reached past the warning in front of it ("Access this content at your own risk"): said with the risk or the
 * restriction, never a plain "open the page" (whose "Continue" may be a checkout's).
 */
export const WARNED_ACCESS: Phrases = [
  '(?:access|view|see|enter|open) (?:this|the) (?:content|page|site|area) at your own risk',
  '(?:access|view|see|enter|open) (?:this|the) (?:restricted|sensitive|protected|age-restricted) (?:content|page|site|area)(?: at your own risk)?',
];
/** "Prove you're human": (said) the verification a page asks of a person. */
export const HUMAN_PROOF: Phrases = ["(?:prove|confirm|show|verify) (?:that )?you(?:'re| are) (?:a )?(?:human|not a robot|a real person)"];
/** The means said after it ("by agreeing to our terms", "by ticking the box"). */
export const CONSENT_MEANS: Phrases = [
  'by (?:agreeing to|accepting|acknowledging) (?:the|our|its) (?:terms(?: of (?:service|use))?(?: and conditions)?|conditions|policy)',
];
/** A box that gives consent ("I agree to the terms", "I'm not a robot", "I understand the risks"). */
export const CONSENT_BOXES: Phrases = [
  'agree',
  'accept',
  'consent',
  'understand',
  'acknowledge',
  'terms',
  'conditions',
  'not a robot',
  "i(?:'m| am) (?:a )?human",
  'i am over',
  "i(?:'m| am) \\d+",
];
/** A control that goes on, best first: one that says the consent, then one that only goes on. */
export const GO_ON_NAMES: readonly Phrases[] = [
  ['(?:yes,? )?i (?:understand|acknowledge|accept|agree|consent)\\b.*', '(?:understand|acknowledge|accept|agree)\\b.*'],
  ['continue\\b.*', 'proceed\\b.*', 'enter\\b.*', 'ok(?:ay)?', 'got it', 'show (?:me )?(?:the )?content'],
  // Only after a consent box was ticked: alone, these may send a form the warning merely sits beside.
  ['yes', 'confirm', 'verify', 'submit', 'next'],
];
/** A control that goes back or refuses: never the one clicked. */
export const GO_BACK_NAMES: Phrases = [
  '(?:go )?back\\b.*',
  'cancel',
  'leave\\b.*',
  'decline',
  'reject',
  'exit',
  'no\\b.*',
  "don't\\b.*",
  'take me back.*',
  'return\\b.*',
];
/** Consent asked for stage after stage ("navigate a series of intimidating warnings and confirmations", "click through the warnings"). */
export const CONSENT_SERIES: Phrases = [
  '(?:navigate(?: through| past)?|click through|(?:go|get) (?:through|past)|make (?:your|my) way (?:through|past)) ' +
    '(?:a |the )?(?:series of |all (?:of )?the |every )?(?:(?:intimidating|scary|legal|content|security|age) )*' +
    '(?:warnings?|confirmations?|disclaimers?)(?: and (?:warnings?|confirmations?|disclaimers?))?' +
    '(?: to (?:see|view|reach|access|get to) (?:the )?(?:content|page|site|area))?',
  '(?:acknowledge|accept) (?:all|every one of) the (?:warnings|disclaimers)',
];
/** A control that goes on past a confirmation, taken only while going through a series of them ("Yes, I confirm"). */
export const SERIES_GO_ON: Phrases = ['(?:yes,? )?i confirm\\b.*', "yes,? i(?:'m| am) sure\\b.*"];
/** The most stages of a series of warnings gone through. */
export const SERIES_MAX = 8;
/** Boxes that ask for more than consent to go on (marketing, mail): never ticked while going through warnings. */
export const NOT_CONSENT: Phrases = ['newsletters?', 'marketing', 'offers?', 'promotions?', 'e-?mails?', 'sms', 'partners?', 'updates'];
