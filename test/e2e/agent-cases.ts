/**
 * A corpus of compound (multi-step) form tasks for the agent: fill a field and submit, log in,
 * tick several boxes, pick from lists, open a collapsed section or a tab before acting, type
 * dates and times, press buttons in order, choose from suggestions, fill long forms, go through
 * wizards and search results. The families follow public multi-step web-task suites (MiniWoB-
 * style tasks: enter-text, login-user, enter-password, click-checkboxes, choose-list,
 * click-option, click-collapsible(-2), click-tab-2, choose-date, enter-time,
 * click-button-sequence, use-autocomplete, form-sequence, search-engine) and the way real users
 * phrase such requests. The pages live in test/fixtures/pages/forms/ and were written as a web
 * developer writes real forms, not to suit any parser.
 *
 * Every page records, in its own world (forms/record.js), what it "sent": `window.__submits`
 * (one object of field values per submission) and `window.__clicks` (ids of the buttons and
 * links whose clicks matter, in order). A case expects exactly some submissions (only the
 * listed fields are compared; values as strings, arrays as sets), exactly some clicks in order,
 * or a refusal: the task cannot be done on the page, so the run must report failure having
 * submitted and clicked nothing. This module holds no test of its own, so other suites can
 * import it.
 */
import type { Deckhand, Page } from '../../src/index';
import { runAgent } from './corpus';

export type AgentFamily =
  | 'fill-and-submit'
  | 'login'
  | 'login-variants'
  | 'same-password-both'
  | 'several-checkboxes'
  | 'pick-from-list'
  | 'expand-then-act'
  | 'tabs-find-link'
  | 'date-input'
  | 'time-input'
  | 'buttons-in-order'
  | 'combobox-suggestions'
  | 'multi-field'
  | 'mixed-controls'
  | 'wizard-steps'
  | 'search-then-click'
  | 'trees-and-scroll-lists'
  | 'popups'
  | 'refusals';

/** A submitted value: text, a lone checkbox's state, or a checkbox group's checked values. */
export type FieldValue = string | boolean | string[];
export type Submission = Record<string, FieldValue>;

export type AgentCheck = { submits: Submission[] } | { clicks: string[] } | { refuse: true };

export interface AgentCase {
  family: AgentFamily;
  /** A page under /forms/. */
  page: string;
  say: string;
  expect: AgentCheck;
}

export type AgentOutcome = 'correct' | 'refused' | 'wrong';

export interface AgentVerdict {
  outcome: AgentOutcome;
  /** What happened, for the report: the submissions and clicks recorded, or the error. */
  detail: string;
  /** The run's own final message. */
  message: string;
  /** The run's steps, one line each: the tool, its instruction or arguments, and what it returned. */
  steps: string[];
}

// Pages.
const ET = 'enter-text.html';
const NL = 'newsletter.html';
const FB = 'feedback.html';
const LU = 'login-user.html';
const LC = 'login-card.html';
const LP = 'login-placeholder.html';
const SE = 'signin-email.html';
const EP = 'enter-password.html';
const RP = 'reset-password.html';
const CW = 'checkboxes-words.html';
const CN = 'checkboxes-numbers.html';
const CF = 'checkboxes-fruit.html';
const CL = 'choose-list.html';
const SC = 'select-country.html';
const LB = 'listbox-custom.html';
const RO = 'radio-options.html';
const RS = 'radio-shipping.html';
const XJ = 'collapsible-jqui.html';
const XD = 'collapsible-details.html';
const AC = 'accordion-checkout.html';
const DS = 'details-settings.html';
const XT = 'collapsible-trailing.html';
const TJ = 'tabs-jqui-links.html';
const TA = 'tabs-aria-links.html';
const TB = 'tabs-bootstrap.html';
const DN = 'date-native.html';
const DJ = 'date-jqui.html';
const AP = 'appointment.html';
const TN = 'time-native.html';
const BS = 'button-sequence.html';
const PL = 'player.html';
const CC = 'combo-city.html';
const CY = 'combo-country.html';
const AJ = 'autocomplete-jqui.html';
const SU = 'signup.html';
const CT = 'contact.html';
const SA = 'shipping-address.html';
const PA = 'profile-aria.html';
const JA = 'job-application.html';
const PR = 'preferences.html';
const OF = 'order-form.html';
const FS = 'form-sequence.html';
const WA = 'wizard-account.html';
const WS = 'wizard-shipping.html';
const SR = 'search-engine.html';
const FT = 'file-tree.html';
const LX = 'login-popup.html';
const SL = 'scroll-list.html';
const DO = 'docs-search.html';

/**
 * Every recorded field of each page as it is when the page opens. A case's submission is the
 * page's initial values with the fields the task changes, so a value typed into the wrong
 * field, a box ticked that the task did not name, or a default changed unasked is caught too.
 */
const INITIAL: Record<string, Submission> = {
  [ET]: { tt: '' },
  [SL]: { people: [] },
  [LX]: { username: '', password: '' },
  [`${LX}?m=ok`]: { username: '', password: '' },
  [`${LX}?m=session`]: { username: '', password: '' },
  [`${LX}?m=session&on=username`]: { username: '', password: '' },
  [`${LX}?m=session&only=ok`]: { username: '', password: '' },
  [NL]: { email: '' },
  [FB]: { message: '' },
  [LU]: { username: '', password: '' },
  [LC]: { username: '', password: '', remember: false },
  [LP]: { user: '', pass: '' },
  [SE]: { email: '', password: '', keep_signed_in: false },
  [EP]: { password: '', verify: '' },
  [RP]: { new_password: '', confirm_password: '', show: false },
  [CW]: { ch: [] },
  [CN]: { n: [] },
  [CF]: { fruit: [] },
  [CL]: { options: 'Sidney' },
  [SC]: { country: '', language: 'en' },
  [LB]: { assignee: '' },
  [RO]: { opt: '' },
  [RS]: { delivery: 'standard' },
  [DS]: { timeout: '30', retries: '3', secret: 'whsec_9f2c' },
  [DN]: { date: '' },
  [DJ]: { date: '' },
  [AP]: { name: '', date: '', time: '', reason: 'checkup' },
  [TN]: { tt: '' },
  [CC]: { city: '', city_code: '', guests: '2' },
  [CY]: { country: '', country_code: '' },
  [AJ]: { tags: '' },
  [SU]: { first_name: '', last_name: '', email: '', password: '', terms: false },
  [CT]: { name: '', email: '', subject: 'general', message: '' },
  [SA]: { name: '', street: '', city: '', zip: '', country: 'US' },
  [PA]: { display_name: '', job_title: '', company: '', website: '' },
  [JA]: { fullname: '', email: '', phone: '', role: '', start: '' },
  [PR]: { freq: '', topics: [], lang: 'en' },
  [OF]: { colour: '', size: '', qty: '1', giftwrap: false },
  [FS]: { number: '1', pick: '', tt: '' },
  [WA]: { email: '', password: '', plan: 'free' },
  [WS]: { street: '', city: '', delivery: 'standard' },
};
/** accordion-checkout.html has one form per section. */
const AC_CONTACT: Submission = { email: '', phone: '' };
const AC_SHIPPING: Submission = { address: '', city: '', postcode: '' };

type Row = [page: string, say: string, expect: AgentCheck | Submission];
const clicks = (...ids: string[]): AgentCheck => ({ clicks: ids });
const REFUSE: AgentCheck = { refuse: true };

const table: Record<AgentFamily, Row[]> = {
  // One field, then the submit button (a bare MiniWoB-style page, a newsletter box with only a
  // placeholder and an aria-label, a textarea with a Cancel link beside Send).
  'fill-and-submit': [
    [ET, 'Enter "tula" into the text field and press Submit.', { tt: 'tula' }],
    [ET, 'Type Kasey in the text box and click submit', { tt: 'Kasey' }],
    [ET, 'Please enter "Hello world" in the textbox, then hit Submit.', { tt: 'Hello world' }],
    [NL, 'Enter ada@example.com into the email field and click Subscribe', { email: 'ada@example.com' }],
    [NL, 'subscribe with the address grace@navy.mil', { email: 'grace@navy.mil' }],
    [NL, 'Type "linus@kernel.org" in the email address box and then press Subscribe.', { email: 'linus@kernel.org' }],
    [FB, 'Write "Great service, thanks!" in the feedback box and press Send.', { message: 'Great service, thanks!' }],
    [FB, 'Type Love the new dark mode into Your feedback, then click Send', { message: 'Love the new dark mode' }],
  ],
  // Username and password, then the login button: labels without `for`, labelled Bootstrap
  // fields with a Remember me box, placeholders only.
  login: [
    [LU, 'Enter the username "kanesha" and the password "3w" into the text fields and press login.', { username: 'kanesha', password: '3w' }],
    [LU, 'Enter the username "ronda" and the password "Yh8" into the text fields and press login.', { username: 'ronda', password: 'Yh8' }],
    [LU, 'Type the username marcella and the password 1234, then click Login.', { username: 'marcella', password: '1234' }],
    [LC, 'Enter the username "kanesha" and the password "3w" into the text fields and press sign in.', { username: 'kanesha', password: '3w' }],
    [LC, 'Fill in username jdoe and password s3cret! and then click Sign in', { username: 'jdoe', password: 's3cret!' }],
    [LP, 'Enter the username "tim" and the password "berners" and press Log in.', { user: 'tim', pass: 'berners' }],
    [
      LP,
      'Enter the username "Ophelia" and the password "p@ss word" into the text fields, then press the log in button.',
      { user: 'Ophelia', pass: 'p@ss word' },
    ],
    [
      SE,
      'Enter the email "kanesha@example.com" and the password "3w" into the text fields and press sign in.',
      { email: 'kanesha@example.com', password: '3w' },
    ],
  ],
  // How people ask to be logged in: "as", "with", "using", "user / password", credentials.
  'login-variants': [
    [LU, 'Log in as ada with password lovelace1815', { username: 'ada', password: 'lovelace1815' }],
    [LP, 'log in as tim, password: www1989', { user: 'tim', pass: 'www1989' }],
    [LC, 'Sign in as jdoe using the password hunter2 and tick Remember me', { username: 'jdoe', password: 'hunter2', remember: true }],
    [LC, 'Use the credentials jdoe / hunter2 to sign in.', { username: 'jdoe', password: 'hunter2' }],
    [SE, 'Sign in with email a@b.c and password y', { email: 'a@b.c', password: 'y' }],
    [SE, 'Sign in using grace@navy.mil / cobol59', { email: 'grace@navy.mil', password: 'cobol59' }],
    [
      SE,
      'Sign in with the email "ada@example.com" and the password "Analytical Engine", and keep me signed in.',
      { email: 'ada@example.com', password: 'Analytical Engine', keep_signed_in: true },
    ],
    [LU, 'Please log me in as Bryce, password is Tr0ub4dor', { username: 'Bryce', password: 'Tr0ub4dor' }],
  ],
  // The same password into both fields (password + verify, new + confirm), then submit.
  'same-password-both': [
    [EP, 'Enter the password "x" into both text fields and press submit.', { password: 'x', verify: 'x' }],
    [EP, 'Enter the password "Ot7" into both text fields and press submit.', { password: 'Ot7', verify: 'Ot7' }],
    [EP, 'Type the password dolphin22 into both fields, then click Submit', { password: 'dolphin22', verify: 'dolphin22' }],
    [RP, 'Enter the password "correct horse" into both text fields and press save.', { new_password: 'correct horse', confirm_password: 'correct horse' }],
    [RP, 'Use Tr0ub4dor&3 as the new password in both fields and click Save', { new_password: 'Tr0ub4dor&3', confirm_password: 'Tr0ub4dor&3' }],
    [RP, 'Set the new password to "blue-Falcon-42", confirm it, and save.', { new_password: 'blue-Falcon-42', confirm_password: 'blue-Falcon-42' }],
  ],
  // Several boxes in a list, then the button: words, numbers (12 holds 1 and 2), fruit
  // (Pineapple holds "apple"), none at all.
  'several-checkboxes': [
    [CW, 'Select vel, nibh and morbi and click Submit.', { ch: ['vel', 'nibh', 'morbi'] }],
    [CW, 'Select nothing and click Submit.', { ch: [] }],
    [CW, 'Select Ug and click Submit.', { ch: ['Ug'] }],
    [CN, 'Select 1, 5 and 9 and click Submit.', { n: ['1', '5', '9'] }],
    [CN, 'Check 2, 3, 10 and 12, then press Submit', { n: ['2', '3', '10', '12'] }],
    [CN, 'Select 4 and 11 and click Submit.', { n: ['4', '11'] }],
    [CF, 'Tick Apples and Pears, then press Continue', { fruit: ['apples', 'pears'] }],
    [CF, 'Please check Cherries, Plums, and Grapes and then click Continue.', { fruit: ['cherries', 'plums', 'grapes'] }],
    [CF, 'select apples, then continue', { fruit: ['apples'] }],
  ],
  // One option from a <select>, a custom role=listbox, or a radio group, then the button.
  'pick-from-list': [
    [CL, 'Select Ana from the list and click Submit.', { options: 'Ana' }],
    [CL, 'Select Rozanne from the list and click Submit.', { options: 'Rozanne' }],
    [CL, 'Choose Ignacio in the dropdown, then press Submit', { options: 'Ignacio' }],
    [SC, 'Select Germany as the country and click Continue', { country: 'DE' }],
    [SC, 'Choose Japan from the country list, set the language to Japanese, and press Continue', { country: 'JP', language: 'ja' }],
    [LB, 'Select Dmitri from the list and click Save.', { assignee: 'Dmitri' }],
    [LB, 'Pick Carlos in the assignee list, then save', { assignee: 'Carlos' }],
    [RO, 'Select Ana and click Submit.', { opt: 'Ana' }],
    [RO, 'Select kVx and click Submit.', { opt: 'kVx' }],
    [RS, 'Choose Express delivery and click Continue', { delivery: 'express' }],
    [RS, 'Select pick up in store, then continue', { delivery: 'pickup' }],
  ],
  // The target (a link, fields, a button) sits in a collapsed section: jQuery UI accordion,
  // <details>, a Bootstrap-style accordion with one form per section.
  'expand-then-act': [
    [XJ, 'Expand the sections below, to find and click on the link "egestas".', clicks('l-egestas')],
    [XJ, 'Expand the sections below, to find and click on the link "lacus".', clicks('l-lacus')],
    [XJ, 'Find the link "ornare" in the sections below and click it.', clicks('l-ornare')],
    [XD, 'Expand the sections below, to find and click on the link "returns form".', clicks('faq-returns-form')],
    [XD, 'Open the question about shipping times and click the tracking page link', clicks('faq-tracking')],
    [AC, 'Open Shipping and enter 12 Main St as the address, then save', { submits: [{ ...AC_SHIPPING, address: '12 Main St' }] }],
    [
      AC,
      'Expand Contact, type ada@example.com into Email and 555-0100 into Phone, and then click Save',
      { submits: [{ ...AC_CONTACT, email: 'ada@example.com', phone: '555-0100' }] },
    ],
    [DS, 'Expand the section below and click Save.', {}],
    // A header that holds Submit (read as a header by the accordion) is no section: the one real section is opened.
    [XT, 'Expand the section below and click submit.', { submits: [{ open: 'panel-12' }] }],
    // Two sections and Submit already shown: which to expand is not said.
    [`${XT}?m=two`, 'Expand the section below and click submit.', REFUSE],
    [DS, 'Open Advanced settings, set the timeout to 60 and the retries to 5, then save', { timeout: '60', retries: '5' }],
  ],
  // The link is in a panel that is not shown: jQuery UI tabs, role=tab buttons with hidden
  // panels, Bootstrap-style nav tabs.
  'tabs-find-link': [
    [TJ, 'Switch between the tabs to find and click on the link "ultrices".', clicks('l-ultrices')],
    [TJ, 'Switch between the tabs to find and click on the link "amet".', clicks('l-amet')],
    [TJ, 'Go through the tabs and click the link "dapibus".', clicks('l-dapibus')],
    [TA, 'Switch between the tabs to find and click on the link "Refund policy".', clicks('h-refunds')],
    [TA, 'Find the Change email link in the tabs and click it', clicks('h-email')],
    [TA, 'Open the Account tab and click "Delete account"', clicks('h-delete')],
    [TB, 'Switch to the Python tab and click the asyncio guide link.', clicks('d-py-async')],
    [TB, 'Switch between the tabs to find and click on the link "notes on contexts".', clicks('d-go-context')],
  ],
  // A native <input type=date> takes ISO values; a jQuery UI datepicker text input keeps what
  // is typed or picked (mm/dd/yyyy).
  'date-input': [
    [DN, 'Enter 11/05/2016 as the date and hit submit.', { date: '2016-11-05' }],
    [DN, 'Enter 02/29/2020 as the date and press Submit', { date: '2020-02-29' }],
    [DN, 'Set the date to 1 March 2024, then click Submit', { date: '2024-03-01' }],
    [DJ, 'Enter 11/05/2016 as the date and hit submit.', { date: '11/05/2016' }],
    [DJ, 'Select 12/31/2016 as the date and hit submit.', { date: '12/31/2016' }],
    [DJ, 'Type 07/04/2021 into the date field and click Submit', { date: '07/04/2021' }],
    [AP, 'Set the preferred date to 12/01/2023 and press Book appointment', { date: '2023-12-01' }],
    [
      AP,
      'Enter Ada Lovelace as the name, 03/15/2024 as the preferred date and 2:30 PM as the time, then click Book appointment',
      { name: 'Ada Lovelace', date: '2024-03-15', time: '14:30' },
    ],
  ],
  // A native <input type=time> takes 24-hour values.
  'time-input': [
    [TN, 'Enter 3:15 PM as the time and press submit.', { tt: '15:15' }],
    [TN, 'Enter 9:05 AM as the time and press submit.', { tt: '09:05' }],
    [TN, 'Enter 12:30 AM as the time and press submit.', { tt: '00:30' }],
    [TN, 'Set the time to 12:00 PM and click Submit', { tt: '12:00' }],
    [TN, 'Enter 11:45 PM as the time, then hit Submit', { tt: '23:45' }],
    [AP, 'Enter 4:00 PM as the preferred time and click Book appointment', { time: '16:00' }],
    [AP, 'Choose 10:30 AM as the preferred time, then press Book appointment.', { time: '10:30' }],
  ],
  // Buttons to press in a given order: ONE/TWO placed out of order, icon buttons named by aria-label.
  'buttons-in-order': [
    [BS, 'Click button ONE, then click button TWO.', clicks('subbtn', 'subbtn2')],
    [BS, 'Click button TWO, then click button ONE.', clicks('subbtn2', 'subbtn')],
    [BS, 'Click ONE and then TWO', clicks('subbtn', 'subbtn2')],
    [BS, 'press TWO, then ONE', clicks('subbtn2', 'subbtn')],
    [PL, 'Press Play, then Next track, and then Pause.', clicks('play', 'next', 'pause')],
    [PL, 'Click shuffle and then play', clicks('shuffle', 'play')],
    [PL, 'Mute the player, then press the previous track button.', clicks('mute', 'prev')],
  ],
  // Comboboxes whose suggestions appear as you type; a pick sets a hidden code beside the
  // text, so choosing from the list is told apart from typing the name. jQuery UI autocomplete too.
  'combobox-suggestions': [
    [CC, 'Enter Berlin into the city field, choosing it from the suggestions, and submit', { city: 'Berlin', city_code: 'BER' }],
    [CC, 'Type "Por" into the city field, pick Porto from the suggestions and submit', { city: 'Porto', city_code: 'OPO' }],
    [CC, 'Choose Bergen from the city suggestions and click Submit', { city: 'Bergen', city_code: 'BGO' }],
    [CY, 'Type "Ger" and pick Germany from the suggestions, then submit', { country: 'Germany', country_code: 'DE' }],
    [CY, 'Type "land" and choose Finland from the suggestions, then submit', { country: 'Finland', country_code: 'FI' }],
    [CY, 'Start typing "Aus" and select Austria from the list, then press submit', { country: 'Austria', country_code: 'AT' }],
    [AJ, 'Enter an item that starts with "Ger" and ends with "ny", then press Submit.', { tags: 'Germany' }],
    [AJ, 'Enter an item that starts with "Ind" and ends with "sia" and submit.', { tags: 'Indonesia' }],
    // "An item": any suggestion that fits will do (Guinea and Guyana both start "Gu"); the form's one Submit hands it in.
    [AJ, 'Enter an item that starts with "Gu".', { tags: 'Guinea' }],
    [AJ, 'Enter an item that starts with "Nig" and ends with "ia".', { tags: 'Nigeria' }],
  ],
  // Three to six fields by label, placeholder or aria-label, then the button.
  'multi-field': [
    [
      SU,
      'Fill in first name Ada, last name Lovelace and email ada@example.com, then click Create account',
      { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    ],
    [
      SU,
      'Enter "Grace" as the first name, "Hopper" as the last name, "grace@navy.mil" as the email and "cobol" as the password, ' +
        'tick I agree to the Terms and press Create account.',
      { first_name: 'Grace', last_name: 'Hopper', email: 'grace@navy.mil', password: 'cobol', terms: true },
    ],
    [
      SU,
      'First name: Alan, last name: Turing, email: alan@bletchley.uk, password: enigma. Then create the account.',
      { first_name: 'Alan', last_name: 'Turing', email: 'alan@bletchley.uk', password: 'enigma' },
    ],
    [
      SU,
      'Create an account for Hedy Lamarr (hedy@example.com) with the password frequency-hop',
      { first_name: 'Hedy', last_name: 'Lamarr', email: 'hedy@example.com', password: 'frequency-hop' },
    ],
    // A goal said with the form's values: the name split where the form asks for first and last names.
    [
      SU,
      'Create a new account for Ada Lovelace, with email ada@example.com and password engine',
      { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', password: 'engine' },
    ],
    [SU, 'Create an account for Hedy (hedy@example.com) with the password frequency-hop', REFUSE],
    [
      CT,
      'Fill the contact form: name Linus Torvalds, email linus@kernel.org, subject Technical support, message "My kernel panics on boot", and then hit Send',
      { name: 'Linus Torvalds', email: 'linus@kernel.org', subject: 'support', message: 'My kernel panics on boot' },
    ],
    [
      CT,
      'Enter the name "Margaret Hamilton", the email "mh@nasa.gov" and the message "Apollo checklist attached" and click Send.',
      { name: 'Margaret Hamilton', email: 'mh@nasa.gov', message: 'Apollo checklist attached' },
    ],
    [
      SA,
      'Enter John Smith as the full name, 12 Main St as the street address, Springfield as the city and 62704 as the ZIP code, then press Continue',
      { name: 'John Smith', street: '12 Main St', city: 'Springfield', zip: '62704' },
    ],
    [
      SA,
      'Fill in the shipping form with the name Ana Lima, the street Rua Augusta 100, the city Lisbon and the zip code 1100-048, ' +
        'choose Portugal as the country, then click Continue',
      { name: 'Ana Lima', street: 'Rua Augusta 100', city: 'Lisbon', zip: '1100-048', country: 'PT' },
    ],
    [
      PA,
      'Set the display name to ada_l, the job title to Analyst and the company to Babbage & Co, then click Save',
      { display_name: 'ada_l', job_title: 'Analyst', company: 'Babbage & Co' },
    ],
    [PA, 'Enter "https://ada.dev" as the website and "Countess" as the job title, then save.', { website: 'https://ada.dev', job_title: 'Countess' }],
    [
      JA,
      'Fill in full name Katherine Johnson, email kj@nasa.gov and phone 555-0199, choose Designer as the role, and click Submit application',
      { fullname: 'Katherine Johnson', email: 'kj@nasa.gov', phone: '555-0199', role: 'designer' },
    ],
    [
      JA,
      'Enter the full name Dorothy Vaughan, the email dv@nasa.gov, select Product manager as the role and 09/01/2024 as the start date, ' +
        'then submit the application',
      { fullname: 'Dorothy Vaughan', email: 'dv@nasa.gov', role: 'pm', start: '2024-09-01' },
    ],
    [
      AP,
      'Book a cleaning for Grace Hopper on 06/07/2024 at 9:15 AM: fill in the name, the date and the time, ' +
        'set the reason to Cleaning, and click Book appointment',
      { name: 'Grace Hopper', date: '2024-06-07', time: '09:15', reason: 'cleaning' },
    ],
    [
      AP,
      'Book a check-up for Ada Lovelace on 07/01/2024 at 2:30 PM: fill in the name, the date and the time, and click Book appointment',
      { name: 'Ada Lovelace', date: '2024-07-01', time: '14:30' },
    ],
  ],
  // Radios, checkboxes, selects and text together (MiniWoB form-sequence), ordinals included.
  'mixed-controls': [
    [PR, 'Choose Weekly, tick Science and Sports, set the language to French, and click Save.', { freq: 'weekly', topics: ['science', 'sports'], lang: 'fr' }],
    [PR, 'Select Monthly, check Arts, and press Save', { freq: 'monthly', topics: ['arts'] }],
    [PR, 'Set the language to German and the frequency to Daily, then save', { freq: 'daily', lang: 'de' }],
    [
      OF,
      'Set the quantity to 3, choose size L and the colour Navy, tick Gift wrap and click Place order',
      { qty: '3', size: 'L', colour: 'navy', giftwrap: true },
    ],
    [OF, 'Order 2 in size S, colour White, then click Place order', { qty: '2', size: 'S', colour: 'white' }],
    [OF, 'Buy 3 pieces in size M, colour Navy, and click Place order', { qty: '3', size: 'M', colour: 'navy' }],
    [FS, 'Check the 2nd radio button and enter the text "-1" into the textbox, then press Submit.', { pick: 'Ro', tt: '-1' }],
    [FS, 'Select 4 from the dropdown, check the 3rd radio button and type "ok" in the textbox, then submit.', { number: '4', pick: 'lacinia', tt: 'ok' }],
    [SU, 'Enter ada@example.com as the email, agree to the terms, and click Create account', { email: 'ada@example.com', terms: true }],
  ],
  // Steps revealed one after another by Next / Continue; only the last button submits.
  'wizard-steps': [
    [
      WA,
      'Enter ada@example.com and click Next, then enter the password Engine1843 and click Next, then choose Pro and click Create account',
      { email: 'ada@example.com', password: 'Engine1843', plan: 'pro' },
    ],
    [
      WA,
      'Type hedy@example.com in the email field, press Next, type frequency into the password field, press Next, pick Team and press Create account.',
      { email: 'hedy@example.com', password: 'frequency', plan: 'team' },
    ],
    [
      WA,
      'Enter linus@kernel.org as the work email, click Next, enter tux4ever as the password, click Next, and then click Create account',
      { email: 'linus@kernel.org', password: 'tux4ever', plan: 'free' },
    ],
    [
      WS,
      'Enter 12 Main St as the street and Springfield as the city, click Continue, choose Express, click Continue and then Place order',
      { street: '12 Main St', city: 'Springfield', delivery: 'express' },
    ],
    [
      WS,
      'Fill in street 1 Infinite Loop and city Cupertino, continue, keep Standard delivery, continue, and place the order',
      { street: '1 Infinite Loop', city: 'Cupertino', delivery: 'standard' },
    ],
    [
      WS,
      'Type "5 Elm Road" into Street and "Portland" into City, then press Continue twice and click Place order.',
      { street: '5 Elm Road', city: 'Portland' },
    ],
  ],
  // Search, then click the nth result (three results a page, so the 4th and 5th are on page 2).
  'search-then-click': [
    [SR, 'Use the textbox to enter "Ada" and press "Search", then find and click the 2nd search result.', clicks('r-ada-lang')],
    [SR, 'Use the textbox to enter "Ada" and press "Search", then find and click the 5th search result.', clicks('r-ada-day')],
    [SR, 'Search for Turing and click the first result', clicks('r-turing-machine')],
    [SR, 'Use the textbox to enter "Turing" and press "Search", then find and click the 4th search result.', clicks('r-turing-award')],
    [DO, 'Search the docs for "token" and open the third result', clicks('doc-token-scopes')],
    [DO, 'Type webhook into the search box, press Enter, and click the first result', clicks('doc-webhooks-overview')],
  ],
  // A folder tree whose folders open on click (MiniWoB's navigate-tree), and a multiple-choice
  // scroll list (click-scroll-list): each choice keeps the ones before it.
  'trees-and-scroll-lists': [
    [FT, 'Navigate through the file tree. Find and click on the folder or file named "Briana".', clicks('t-briana')],
    [FT, 'Find Kasey in the file tree and click it', clicks('t-kasey')],
    [FT, 'Open the Photos folder and click lake.jpg', clicks('t-lake')],
    [FT, 'Navigate through the file tree. Find and click on the folder or file named "report-2019.pdf".', clicks('t-2019')],
    [SL, 'Select Tiffany, Katharine from the scroll list and click Submit.', { people: ['Tiffany', 'Katharine'] }],
    [SL, 'Select Zed from the list and click Submit.', { people: ['Zed'] }],
    [SL, 'Select Bob, Lyda and Truda from the list, then press Submit', { people: ['Bob', 'Lyda', 'Truda'] }],
  ],
  // A dialog pops up over the form midway (MiniWoB's login-user-popup): closed by its close
  // control, never by Subscribe, then the step it covered runs.
  popups: [
    [LX, 'Enter the username "ronda" and the password "Yh8" into the text fields and press login.', { username: 'ronda', password: 'Yh8' }],
    // "press login" where the form's one button says "OK": the button that sends the password.
    [`${LX}?m=ok`, 'Enter the username "ronda" and the password "Yh8" into the text fields and press login.', { username: 'ronda', password: 'Yh8' }],
    [LX, 'Log in as marcella with password 1234', { username: 'marcella', password: '1234' }],
    // A plain box that a field's focus brings up and that disables the form before the value goes in: Cancel, then again.
    [`${LX}?m=session`, 'Enter the username "ronda" and the password "Yh8" into the text fields and press login.', { username: 'ronda', password: 'Yh8' }],
    [`${LX}?m=session&on=username`, 'Log in as marcella with password 1234', { username: 'marcella', password: '1234' }],
    [
      `${LX}?m=session&on=username`,
      'Type kasey in the username field, type "pa ss" in the password field, then click Login',
      { username: 'kasey', password: 'pa ss' },
    ],
    // Its one button leaves the form: never pressed.
    [`${LX}?m=session&only=ok`, 'Log in as marcella with password 1234', REFUSE],
    [LX, 'Type kasey in the username field, type "pa ss" in the password field, then click Login', { username: 'kasey', password: 'pa ss' }],
  ],
  // A field, option, section, link or button the task names is not on the page, a value the
  // widget cannot hold, or no values given: the run must fail and submit and click nothing.
  refusals: [
    [FT, 'Navigate through the file tree. Find and click on the folder or file named "Ludwig".', REFUSE],
    [SL, 'Select Tiffany and Wilhelmina from the scroll list and click Submit.', REFUSE],
    [LU, 'Enter the username "kanesha", the password "3w" and the PIN "1234", then press login.', REFUSE],
    [LP, 'Enter the username and password and press Log in.', REFUSE],
    [SU, 'Fill in first name Ada, last name Lovelace and phone 555-0100, then click Create account', REFUSE],
    [CT, 'Fill in the form and send it.', REFUSE],
    [CL, 'Select Zed from the list and click Submit.', REFUSE],
    [SC, 'Select Atlantis as the country and click Continue', REFUSE],
    [CF, 'Tick Apples and Mangoes, then press Continue', REFUSE],
    [CN, 'Select 3, 7 and 15 and click Submit.', REFUSE],
    [RS, 'Choose Overnight delivery and click Continue', REFUSE],
    [CC, 'Enter Atlantis into the city field, choosing it from the suggestions, and submit', REFUSE],
    [TN, 'Enter 25:70 as the time and press submit.', REFUSE],
    [DN, 'Enter 02/30/2019 as the date and hit submit.', REFUSE],
    [XJ, 'Expand the sections below, to find and click on the link "zebra".', REFUSE],
    [AC, 'Open Billing and enter 12 Main St as the address, then save', REFUSE],
    [TA, 'Switch between the tabs to find and click on the link "Gift cards".', REFUSE],
    // Two links of that name (to different places) on the open tab already: the one behind another tab is not the answer either.
    [TJ, 'Switch between the tabs to find and click on the link "nunc".', REFUSE],
    [BS, 'Click button ONE, then click button THREE.', REFUSE],
    [PL, 'Press Play, then click Record.', REFUSE],
    [WA, 'Enter ada@example.com and click Next, then enter the password Engine1843 and click Next, then choose Enterprise and click Create account', REFUSE],
  ],
};

const isCheck = (x: AgentCheck | Submission): x is AgentCheck =>
  ('submits' in x && Array.isArray(x.submits)) || ('clicks' in x && Array.isArray(x.clicks)) || ('refuse' in x && x.refuse === true);

/** A bare object of fields is one submission: the page's initial values with those fields changed. */
function expectation(page: string, x: AgentCheck | Submission): AgentCheck {
  if (isCheck(x)) return x;
  const initial = INITIAL[page];
  if (!initial) throw new Error(`agent-cases: no initial values for ${page}`);
  for (const k of Object.keys(x)) if (!(k in initial)) throw new Error(`agent-cases: ${page} has no field ${k}`);
  return { submits: [{ ...initial, ...x }] };
}

export const AGENT_CASES: AgentCase[] = Object.entries(table).flatMap(([family, rows]) =>
  rows.map(([page, say, x]) => ({ family: family as AgentFamily, page, say, expect: expectation(page, x) })),
);

export const AGENT_FAMILIES = Object.keys(table) as AgentFamily[];

/** The page's record: what it submitted and which tracked elements were clicked. */
interface PageRecord {
  url: string;
  submits: Submission[] | null;
  clicks: string[] | null;
}

const show = (v: unknown) => JSON.stringify(v);

function sameValue(want: FieldValue, got: FieldValue | undefined): boolean {
  if (got === undefined) return false;
  if (Array.isArray(want) || Array.isArray(got)) {
    if (!Array.isArray(want) || !Array.isArray(got)) return false;
    const a = [...new Set(want.map(String))].sort();
    const b = [...new Set(got.map(String))].sort();
    return a.length === b.length && a.every((v, i) => v === b[i]);
  }
  return String(want) === String(got);
}

/** Why the recorded submissions differ from the expected ones, or null when they match. */
function submitsMismatch(want: Submission[], got: Submission[]): string | null {
  if (want.length !== got.length) return `expected ${want.length} submission(s), got ${got.length}: ${show(got)}`;
  for (let i = 0; i < want.length; i++) {
    const bad = Object.entries(want[i]!).filter(([k, v]) => !sameValue(v, got[i]![k]));
    if (bad.length) return `submission ${i + 1}: ${bad.map(([k, v]) => `${k} is ${show(got[i]![k])}, expected ${show(v)}`).join('; ')}`;
  }
  return null;
}

/** Opens the case's page, runs the agent on the task, and judges what the page recorded. */
export async function judgeAgent(dh: Deckhand, page: Page, origin: string, c: AgentCase): Promise<AgentVerdict> {
  const url = `${origin}/forms/${c.page}`;
  await page.goto(url);
  const ready = await page.evaluate(() => {
    const w = window as unknown as { __submits?: unknown; __clicks?: unknown };
    return Array.isArray(w.__submits) && Array.isArray(w.__clicks) && w.__submits.length === 0 && w.__clicks.length === 0;
  });
  if (!ready) throw new Error(`${c.page}: the page's recorder did not load`);

  const { success, message, steps } = await runAgent(dh, c.say);

  const rec: PageRecord | null = await page
    .evaluate(() => {
      const w = window as unknown as { __submits?: Submission[]; __clicks?: string[] };
      return { url: location.href, submits: Array.isArray(w.__submits) ? w.__submits : null, clicks: Array.isArray(w.__clicks) ? w.__clicks : null };
    })
    .catch(() => null);
  const verdict = (outcome: AgentOutcome, detail: string): AgentVerdict => ({ outcome, detail, message, steps });
  // A page that lost its record was left or reloaded: what it sent cannot be known.
  if (!rec || !rec.submits || !rec.clicks || rec.url.split('#')[0] !== url) {
    return verdict('wrong', `the page was left or reloaded (now at ${rec?.url ?? 'an unreadable page'}); its record is gone`);
  }
  const { submits, clicks: clicked } = rec;
  const seen = `submitted ${show(submits)}, clicked ${show(clicked)}`;
  const e = c.expect;

  if (!success) {
    // A submission after a step that failed is the worst outcome.
    if (submits.length) return verdict('wrong', `reported failure but submitted: ${seen}`);
    if ('refuse' in e)
      return clicked.length ? verdict('wrong', `reported failure but clicked ${show(clicked)}`) : verdict('correct', 'refused, nothing submitted or clicked');
    if ('clicks' in e) {
      const prefix = clicked.every((id, i) => e.clicks[i] === id);
      return prefix
        ? verdict('refused', `reported failure; ${seen}`)
        : verdict('wrong', `reported failure after clicking ${show(clicked)}, expected ${show(e.clicks)}`);
    }
    return clicked.length ? verdict('wrong', `reported failure after clicking ${show(clicked)}`) : verdict('refused', `reported failure; nothing submitted`);
  }

  if ('refuse' in e) return verdict('wrong', `reported success on a task it cannot do; ${seen}`);
  if ('clicks' in e) {
    if (submits.length) return verdict('wrong', `expected clicks ${show(e.clicks)} and no submission; ${seen}`);
    const same = clicked.length === e.clicks.length && clicked.every((id, i) => id === e.clicks[i]);
    return same ? verdict('correct', `clicked ${show(clicked)}`) : verdict('wrong', `clicked ${show(clicked)}, expected ${show(e.clicks)}`);
  }
  if (clicked.length) return verdict('wrong', `clicked ${show(clicked)} on the way; submitted ${show(submits)}`);
  const bad = submitsMismatch(e.submits, submits);
  return bad ? verdict('wrong', bad) : verdict('correct', `submitted ${show(submits)}`);
}
