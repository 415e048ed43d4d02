import { describe, expect, it } from 'vitest';
import { Refusal } from '../../src/models/local/act';
import { planInstruction } from '../../src/models/local/plan';

const page = (fields: string[] = [], names: string[] = []) => ({ fields, names });
const says = (instruction: string, p = page()) => planInstruction(instruction, p).map((s) => s.say);

describe('the built-in planner splits compound instructions into single steps', () => {
  it('sequence words: and, then, commas, semicolons; quotes stay whole', () => {
    expect(says('Enter "tula" into the text field and press Submit.')).toEqual(['Enter "tula" into the text field', 'press Submit']);
    expect(says('Click button ONE, then click button TWO.')).toEqual(['Click button ONE', 'click button TWO']);
    expect(says('Type "a, b and then c" in the box; then hit enter')).toEqual(['Type "a, b and then c" in the box', 'hit enter']);
    expect(says('Open Shipping and enter 12 Main St as the address, then save')).toEqual(['Open Shipping', 'enter 12 Main St as the address', 'save']);
  });
  it('a verb spread over a list, unless the list is one name on the page', () => {
    expect(says('Select 1, 5 and 9 and click Submit.')).toEqual(['select 1', 'select 5', 'select 9', 'click Submit']);
    expect(says('Tick Apples and Pears, then press Continue')).toEqual(['tick Apples', 'tick Pears', 'press Continue']);
    expect(says('check Terms and Conditions', page([], ['Terms and Conditions']))).toEqual(['check Terms and Conditions']);
    expect(says('Select Red and Blue from the colour list')).toEqual(['select Red from the colour list', 'select Blue from the colour list']);
  });
  it('label-value pairs read with the page own field names', () => {
    expect(says('Enter the username "kanesha" and the password "3w" into the text fields and press login.')).toEqual([
      'enter "kanesha" into the username field',
      'enter "3w" into the password field',
      'press login',
    ]);
    expect(says('Fill in first name Ada, last name Lovelace and email ada@example.com, then click Create account', page(['First name', 'Last name', 'Email']))).toEqual([
      'enter "Ada" into the first name field',
      'enter "Lovelace" into the last name field',
      'enter "ada@example.com" into the email field',
      'click Create account',
    ]);
  });
  it('into both fields, logins, submit, and other names for the button', () => {
    expect(says('Enter the password "x" into both text fields and press submit.')).toEqual(['enter "x" into the first text field', 'enter "x" into the second text field', 'press submit']);
    expect(says('Log in as ada with password "s3cret"')).toEqual(['enter "ada" into the username field', 'enter "s3cret" into the password field', 'click the log in button']);
    expect(says('Sign in with email a@b.co and password y')).toEqual(['enter "a@b.co" into the email field', 'enter "y" into the password field', 'click the log in button']);
    const [, press] = planInstruction('Enter "a" into the name field and press login', page());
    expect(press.or).toContain('click the sign in button');
    expect(says('Fill the name field with Bo and submit')).toEqual(['Fill the name field with Bo', 'click submit']);
  });
  it('search directions become a search for the next step', () => {
    const steps = planInstruction('Expand the sections below, to find and click on the link "ipsum".', page());
    expect(steps).toEqual([{ say: 'click on the link "ipsum"', search: true }]);
    expect(planInstruction('Switch between the tabs to find and click on the link "X".', page())).toEqual([{ say: 'click on the link "X"', search: true }]);
  });
  it('refuses conditions and repetition, and an instruction with no step', () => {
    expect(() => planInstruction('click Next until the last page', page())).toThrow(Refusal);
    expect(() => planInstruction('if the box is empty, type hi', page())).toThrow(/conditions/);
    expect(() => planInstruction('please.', page())).toThrow(Refusal);
  });
});
