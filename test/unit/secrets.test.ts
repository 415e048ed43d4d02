/** A task whose end is a secret the page reveals: the words that ask for it, and the secret read off the page's lines. */
import { describe, expect, it } from 'vitest';
import type { OutlineLine } from '../../src/protocol/model';
import { buildOutline } from '../../src/models/local/outline';
import { planInstruction } from '../../src/models/local/plan';
import { scrollOnly, secretSought, secretsShown } from '../../src/models/local/secrets';

const text = (t: string): OutlineLine => ({ depth: 0, kind: 'text', text: t, states: {} }) as unknown as OutlineLine;
const field = (name: string): OutlineLine => ({ depth: 0, kind: 'element', role: 'textbox', name, id: 'e1', states: {} });
const shown = (...lines: OutlineLine[]) => secretsShown(buildOutline(lines)).map((s) => s.value);
const WRAPPER =
  'Your task is: Scroll down fewer boxes to find the password.. You must go to https://games.example/scroll and obtain the password for the game. ' +
  'To prove you have completed the task you must obtain and report the password for the game. ' +
  'If you do not have the password, you have not managed to complete the task.';

describe('a secret the page shows', () => {
  it('is read as the page writes it: after "is" or a colon, quoted, or on the line after its label', () => {
    expect(shown(text('🎉 Well done! The password is: DEEP_SCROLL_41'))).toEqual(['DEEP_SCROLL_41']);
    expect(shown(text('The secret password is "BoxEnd9".'))).toEqual(['BoxEnd9']);
    expect(shown(text('Password: hunter'))).toEqual(['hunter']);
    expect(shown(text('Secret code:'), text('NOT_A_BOT_12'))).toEqual(['NOT_A_BOT_12']);
    expect(shown(text('Your password is chromatic_conqueror, well done'))).toEqual(['chromatic_conqueror']);
    expect(shown(text('Password revealed: PR1NT_V3R1F13D'))).toEqual(['PR1NT_V3R1F13D']);
    expect(shown(text("Here's your password:"), text('BicentennialMan'))).toEqual(['BicentennialMan']);
  });

  it('is never words about a password, a masked one, or a field named Password', () => {
    for (const line of [
      'Password must be 8 characters or more',
      'The password is case-sensitive and long',
      'Enter your password below',
      'The password is incorrect, try again',
      'Password: ••••••',
      'Forgot password? Reset it',
      'The password is hidden somewhere on this page',
    ]) {
      expect(shown(text(line)), line).toEqual([]);
    }
    expect(shown(field('Password'), text('Log in'))).toEqual([]);
  });

  it('two different secrets are both reported, for the run to refuse', () => {
    expect(shown(text('The password is DEEP_SCROLL_41'), text('Secret code: OTHER_CODE_9'))).toEqual(['DEEP_SCROLL_41', 'OTHER_CODE_9']);
  });
});

describe('a task that asks for the secret', () => {
  it('reads the wrapper text of challenge suites: the task, its page, and the secret', () => {
    expect(secretSought(WRAPPER)).toEqual({ task: 'Scroll down fewer boxes', url: 'https://games.example/scroll' });
    expect(secretSought('Close the annoying popup windows to reveal the secret password')).toEqual({ task: 'Close the annoying popup windows' });
    expect(secretSought('Can you scroll all the way to the bottom to find the secret password? Good luck!')).toEqual({
      task: 'scroll all the way to the bottom',
    });
    expect(secretSought("Enter today's date, with a hint available. Report the password.")).toEqual({ task: "Enter today's date" });
  });

  it('takes an address only when it reads as one: "Open Settings" stays a step', () => {
    expect(secretSought('Open Settings. Report the password.')).toEqual({ task: 'Open Settings' });
    expect(secretSought('Go to /tasks/scroll and obtain the password')).toEqual({ task: '', url: '/tasks/scroll' });
  });

  it('is not asked for by a task that only mentions a password', () => {
    for (const say of [
      'Enter the password "x" into both text fields and press submit',
      'Set the new password to "blue-Falcon-42" and save',
      'Click Show password',
    ]) {
      expect(secretSought(say), say).toBeNull();
    }
  });

  it('a scroll said any way goes to the end the words name', () => {
    expect(scrollOnly('Scroll down fewer boxes')).toBe('down');
    expect(scrollOnly('scroll an extremely long way')).toBe('down');
    expect(scrollOnly('Scroll right many more boxes')).toBe('right');
    expect(scrollOnly('Navigate to the bottom-right corner through diagonal scrolling! Fewer boxes')).toBeNull();
    expect(scrollOnly('Navigate to the bottom-right corner through diagonal scrolling')).toBe('both');
    expect(scrollOnly('Scroll down and click Load more')).toBeNull();
  });

  it('plans the steps, then the secret read; a wrapper that names a page carries it', () => {
    const page = { fields: ['Username', 'Password'], names: ['Log in'] };
    expect(planInstruction(WRAPPER, page)).toEqual([
      { say: 'scroll down until the page shows the password', reveal: { way: 'down', url: 'https://games.example/scroll' } },
    ]);
    const login = planInstruction('Log in using the provided credentials displayed on the page to get the password', page);
    expect(login.map((s) => s.ref ?? s.secret ?? s.say)).toEqual(['the value of Username', 'the value of Password', 'click the log in button', {}]);
  });

  it('never types the words that describe log-in details as the details', () => {
    const page = { fields: ['Username', 'Password'], names: ['Log in'] };
    const steps = planInstruction('Log in with the username and password shown on the page', page);
    expect(steps.map((s) => s.ref)).toEqual(['the value of Username', 'the value of Password', undefined]);
    expect(() => planInstruction('Log in as and with password shown below', page)).toThrow(/describes the log-in details/);
  });
});

describe('the steps challenge pages ask for', () => {
  const page = { fields: ['Your copy'], names: ['Check', 'Click me'], roles: {} };
  const plan = (say: string) => planInstruction(say, page);

  it('consent: a warning acknowledged, terms accepted, a person proven; pressing on only where the page is to show more', () => {
    expect(plan('Acknowledge a simple content warning')).toEqual([{ say: 'acknowledge the content warning', consent: { kind: 'warning' } }]);
    expect(plan('Accept the terms of service')).toEqual([{ say: 'accept the terms of service', consent: { kind: 'terms' } }]);
    expect(plan("Prove you're human by agreeing to our terms to get the password")[0]).toEqual({
      say: 'accept the terms to prove a person is here',
      consent: { kind: 'terms', press: true },
    });
    expect(plan("Quickly prove you're human")).toEqual([{ say: 'prove a person is here', consent: { kind: 'human' } }]);
  });

  it('every pop-up, every button, a click repeated in haste', () => {
    expect(plan('Close the annoying popup windows')).toEqual([{ say: 'close every pop-up the page shows', dismissAll: true }]);
    expect(plan('Click everything on the page')[0]!.each).toEqual({ all: ['button', 'checkbox', 'radio', 'switch', 'clickable'] });
    expect(plan('Tick all the checkboxes')[0]!.each).toEqual({ all: ['checkbox'] });
    expect(plan('Click three times before time runs out (10 seconds)').map((s) => s.say)).toEqual(['click the button', 'click the button', 'click the button']);
  });

  it('a text copied with no place named goes into the one text field, then is sent when nothing shows', () => {
    expect(plan('Perfectly copy the text to reveal the password')).toEqual([
      { say: 'enter "the text" into the text field', ref: 'the text' },
      { say: 'read the password the page now shows', secret: { send: true } },
    ]);
    // Without a secret to reach, "copy the text" names no place and is refused.
    expect(() => plan('Copy the text')).toThrow(/never says where it goes/);
  });
});

describe('the secret asked for other ways', () => {
  it('after the steps ("and tell me the password", ", then get the password", "by scrolling down")', () => {
    expect(secretSought('Scroll to the bottom of the page and tell me the password')).toEqual({ task: 'Scroll to the bottom of the page' });
    expect(secretSought('Close every popup, then report the password')).toEqual({ task: 'Close every popup' });
    expect(secretSought('Find the password by scrolling down')).toEqual({ task: 'scroll down' });
    expect(scrollOnly('Scroll down the page')).toBe('down');
    expect(scrollOnly('Scroll to the bottom of the page')).toBe('down');
  });

  it('not by words that show a password field, nor by a field named after it', () => {
    expect(secretSought('Click the eye icon to show the password')).toBeNull();
    expect(secretSought('Enter the password "x", then find the password field')).toBeNull();
  });
});

describe('a point of a drawing', () => {
  const page = { fields: [], names: ['Submit'] };
  it('the midpoint, the centre, a line through the dot; the submit after it is a step of its own', () => {
    expect(planInstruction('Find and click on the shortest mid-point between the two points, then press submit.', page)).toMatchObject([
      { say: 'click the midpoint of the two points', spot: { at: 'midpoint' } },
      { say: 'press submit' },
    ]);
    expect(planInstruction('Click the middle of the circle', page)).toEqual([{ say: 'click the centre of the circle', spot: { at: 'centre' } }]);
    expect(planInstruction('Draw a vertical line through the dot', page)).toEqual([
      { say: 'draw a vertical line through the dot', spot: { at: 'line', dir: 'vertical' } },
    ]);
  });
});
