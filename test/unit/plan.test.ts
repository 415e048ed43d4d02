import { describe, expect, it } from 'vitest';
import { Refusal } from '../../src/models/local/act';
import { planInstruction } from '../../src/models/local/plan';

const page = (fields: string[] = [], names: string[] = []) => ({ fields, names });
const says = (instruction: string, p = page()) => planInstruction(instruction, p).map((s) => s.say);

describe('the built-in planner splits compound instructions into single steps', () => {
  it("a goal said with its form's values: each value into the one field it fits, only where the page has it", () => {
    const signup = page(['First name', 'Last name', 'Email', 'Password'], ['Create account']);
    expect(says('Create an account for Hedy Lamarr (hedy@example.com) with the password frequency-hop', signup)).toEqual([
      'enter "Hedy" into the first name field',
      'enter "Lamarr" into the last name field',
      'enter "hedy@example.com" into the email field',
      'enter "frequency-hop" into the password field',
      'create the account',
    ]);
    // One word for a form that asks for two names, or brackets that hold no address: read no further than before.
    expect(says('Create an account for Hedy (hedy@example.com)', signup)).toEqual(['Create an account for Hedy (hedy@example.com)']);
    expect(says('Create an account for Hedy Lamarr (the inventor)', signup)).toEqual(['Create an account for Hedy Lamarr (the inventor)']);
    const booking = page(['Name', 'Date', 'Time', 'Reason'], ['Book appointment']);
    expect(
      says('Book a cleaning for Grace Hopper on 06/07/2024 at 9:15 AM: fill in the name, the date and the time, and click Book appointment', booking),
    ).toEqual([
      'enter "Grace Hopper" into the name field',
      'enter "06/07/2024" into the date field',
      'enter "9:15 AM" into the time field',
      'click Book appointment',
    ]);
    // A field listed that the head gives no value for: not rewritten.
    expect(says('Book a cleaning on 06/07/2024: fill in the name and the date', booking)[0]).toMatch(/^Book a cleaning/);
    const order = page(['Quantity', 'Size', 'Colour'], ['Place order']);
    expect(says('Order 2 in size S, colour White, then click Place order', order)[0]).toBe('set the quantity to 2');
    expect(says('Order 2 in size S, colour White, then click Place order', page(['Size']))[0]).not.toBe('set the quantity to 2');
  });

  it('sequence words: and, then, commas, semicolons; quotes stay whole', () => {
    expect(says('Enter "tula" into the text field and press Submit.')).toEqual(['Enter "tula" into the text field', 'press Submit']);
    expect(says('Click button ONE, then click button TWO.')).toEqual(['Click the "ONE" button', 'click the "TWO" button']);
    expect(says('Press Play, then Next track, and then Pause')).toEqual(['Press Play', 'Press Next track', 'Pause']);
    expect(says('press Continue twice and click Place order')).toEqual(['press Continue', 'press Continue', 'click Place order']);
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
    expect(
      says('Fill in first name Ada, last name Lovelace and email ada@example.com, then click Create account', page(['First name', 'Last name', 'Email'])),
    ).toEqual([
      'enter "Ada" into the first name field',
      'enter "Lovelace" into the last name field',
      'enter "ada@example.com" into the email field',
      'click Create account',
    ]);
  });
  it('entry lists in the ways people write them; selects and suggestions', () => {
    // The list said first: the choice is the step, made from that list; the steps after it stay their own.
    expect(says('From the country drop-down choose Japan, then click Save')).toEqual(['choose Japan from the country drop-down', 'click Save']);
    expect(says('In the size list, select Medium and click Save')).toEqual(['select Medium from the size list', 'click Save']);
    expect(says('Enter Ada Lovelace as the name, 03/15/2024 as the preferred date and 2:30 PM as the time')).toEqual([
      'enter "Ada Lovelace" into the name field',
      'enter "03/15/2024" into the preferred date field',
      'enter "2:30 PM" into the time field',
    ]);
    expect(says('Type "5 Elm Road" into Street and "Portland" into City')).toEqual([
      'enter "5 Elm Road" into the Street field',
      'enter "Portland" into the City field',
    ]);
    expect(says('set the timeout to 60 and the retries to 5')).toEqual(['enter "60" into the timeout field', 'enter "5" into the retries field']);
    expect(says('First name: Alan, last name: Turing, email: alan@bletchley.uk. Then create the account')[0]).toBe('enter "Alan" into the First name field');
    expect(says('Fill the contact form: name Linus Torvalds, email linus@kernel.org', page(['Name', 'Email']))).toEqual([
      'enter "Linus Torvalds" into the name field',
      'enter "linus@kernel.org" into the email field',
    ]);
    const [role] = planInstruction('select Product manager as the role and 09/01/2024 as the start date', page());
    expect(role).toEqual({ say: 'select "Product manager" as the role', or: ['enter "Product manager" into the role field'] });
    expect(says('Type "Por" into the city field, pick Porto from the suggestions and submit')).toEqual([
      'Type "Por" into the city field',
      'pick "Porto" from the suggestions',
      'click submit',
    ]);
    expect(says('Choose Bergen from the city suggestions and click Submit')).toEqual(['enter "Bergen" into the city field', 'click Submit']);
    expect(says('Enter Berlin into the city field, choosing it from the suggestions, and submit')).toEqual([
      'Enter Berlin into the city field',
      'click submit',
    ]);
    // "An item": any suggestion that fits will do.
    expect(planInstruction('Enter an item that starts with "Ger" and ends with "ny", then press Submit.', page())[0].pick).toEqual({
      startsWith: 'Ger',
      endsWith: 'ny',
      any: true,
    });
    expect(says('Enter ada@example.com and click Next')).toEqual(['enter "ada@example.com" into the text field', 'click Next']);
    expect(says('Use the textbox to enter "Ada" and press "Search", then find and click the 2nd search result')).toEqual([
      'enter "Ada" into the textbox',
      'press "Search"',
      'click the 2nd search result',
    ]);
    expect(says('Search the docs for "token" and open the third result')).toEqual([
      'enter "token" into the search box',
      'press Enter',
      'open the third result',
    ]);
  });

  it('into both fields, logins, submit, and other names for the button', () => {
    expect(says('Use Tr0ub4dor&3 as the new password in both fields and click Save')).toEqual([
      'enter "Tr0ub4dor&3" into the first text field',
      'enter "Tr0ub4dor&3" into the second text field',
      'click Save',
    ]);
    expect(says('Set the new password to "blue-Falcon-42", confirm it, and save')).toEqual([
      'Set the new password to "blue-Falcon-42"',
      'enter "blue-Falcon-42" into the confirm field',
      'save',
    ]);
    expect(says('Sign in as jdoe using the password hunter2 and tick Remember me')).toEqual([
      'enter "jdoe" into the username field',
      'enter "hunter2" into the password field',
      'tick Remember me',
      'click the log in button',
    ]);
    expect(says('Sign in as jdoe using the password hunter2, then click Remember me')).toEqual([
      'enter "jdoe" into the username field',
      'enter "hunter2" into the password field',
      'click Remember me',
      'click the log in button',
    ]);
    expect(says('Sign in as jdoe using the password hunter2 and tick Remember me, then press Sign in')).toEqual([
      'enter "jdoe" into the username field',
      'enter "hunter2" into the password field',
      'tick Remember me',
      'press Sign in',
    ]);
    expect(says('Sign up with a@b.co and agree to the terms')).toEqual(['enter "a@b.co" into the email field', 'agree to the terms', 'click sign up']);
    expect(says('Select 5 with the spinner and hit Submit')[0]).toBe('enter "5" into the spinner');
    expect(says('log in as tim, password: www1989')).toEqual([
      'enter "tim" into the username field',
      'enter "www1989" into the password field',
      'click the log in button',
    ]);
    expect(says('Please log me in as Bryce, password is Tr0ub4dor')).toEqual([
      'enter "Bryce" into the username field',
      'enter "Tr0ub4dor" into the password field',
      'click the log in button',
    ]);
    expect(says('Use the credentials jdoe / hunter2 to sign in')).toEqual([
      'enter "jdoe" into the username field',
      'enter "hunter2" into the password field',
      'click the log in button',
    ]);
    expect(says('Enter the password "x" into both text fields and press submit.')).toEqual([
      'enter "x" into the first text field',
      'enter "x" into the second text field',
      'press submit',
    ]);
    expect(says('Log in as ada with password "s3cret"')).toEqual([
      'enter "ada" into the username field',
      'enter "s3cret" into the password field',
      'click the log in button',
    ]);
    expect(says('Sign in with email a@b.co and password y')).toEqual([
      'enter "a@b.co" into the email field',
      'enter "y" into the password field',
      'click the log in button',
    ]);
    const [, press] = planInstruction('Enter "a" into the name field and press login', page());
    expect(press.or).toContain('click the sign in button');
    expect(says('Fill the name field with Bo and submit')).toEqual(['Fill the name field with Bo', 'click submit']);
  });
  it('menu paths, sentences, and a tree to look through', () => {
    // Menus that open on hover are hovered through; the last item is clicked.
    expect(says('Select File > Export > "PDF"')).toEqual(['hover over "File"', 'hover over "Export"', 'click "PDF"']);
    expect(planInstruction('Select Edit>Paste', page()).map((x) => x.opens ?? false)).toEqual([true, false]);
    expect(planInstruction('Navigate through the file tree. Find and click on the folder or file named "Briana".', page())).toEqual([
      { say: 'click on the folder or file named "Briana"', search: true },
    ]);
    expect(says('Select Tiffany, Katharine from the scroll list and click Submit.')).toEqual([
      'select Tiffany from the list',
      'select Katharine from the list',
      'click Submit',
    ]);
  });

  it('search directions become a search for the next step', () => {
    const steps = planInstruction('Expand the sections below, to find and click on the link "ipsum".', page());
    // Opening what is folded is a step of its own: no clause of the instruction is dropped.
    expect(steps).toEqual([
      { say: 'Expand the sections below', expand: true, search: true },
      { say: 'click on the link "ipsum"', search: true },
    ]);
    expect(planInstruction('Expand the section below and click submit.', page()).map((x) => [x.say, !!x.expand])).toEqual([
      ['Expand the section below', true],
      ['click submit', false],
    ]);
    expect(planInstruction('Switch between the tabs to find and click on the link "X".', page())).toEqual([{ say: 'click on the link "X"', search: true }]);
  });
  it('refuses a file to upload: it has none to give, and a click on the upload control uploads nothing', () => {
    for (const t of ['Upload any file', 'Attach your CV and press Send', 'Choose a photo to upload', 'Enter "Ada" as the name, then upload a picture']) {
      expect(() => planInstruction(t, page()), t).toThrow(/file to be uploaded/);
    }
    expect(says('Wait for the Upload complete box to be checked, then press Submit').length).toBe(1);
  });
  it('refuses conditions and repetition, and an instruction with no step', () => {
    expect(() => planInstruction('click Next until the last page', page())).toThrow(Refusal);
    expect(() => planInstruction('if the box is empty, type hi', page())).toThrow(/conditions/);
    expect(() => planInstruction('please.', page())).toThrow(Refusal);
    // A hostile length is refused at once, before any pattern reads it.
    const t0 = performance.now();
    expect(() => planInstruction(`log in as ${'a, '.repeat(10_000)}password x`, page())).toThrow(/characters long/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

describe('planner: what must never become a wrong action', () => {
  it('never splits inside brackets or numbers', () => {
    expect(says('Click on the grid coordinate (-2,0).')).toEqual(['Click on the grid coordinate (-2,0)']);
    expect(says('Select the point (3, 4) and press Submit')).toEqual(['Select the point (3, 4)', 'press Submit']);
    expect(says('Enter 1,234.50 into the amount field, then click Pay')).toEqual(['Enter 1,234.50 into the amount field', 'click Pay']);
  });

  it('a value described rather than given is read off the page, never typed as written', () => {
    for (const [say, ref] of [
      ['Type the total number of blocks into the textbox and press Submit', 'the total number of blocks'],
      ['Enter the value of Year of Birth into the text field and press Submit', 'the value of Year of Birth'],
      ['Type the text below into the text field and press Submit', 'the text below'],
      ['Type the 3rd word of the paragraph into the box', 'the 3rd word of the paragraph'],
      ['enter the last word in the text area into the answer field', 'the last word in the text area'],
    ] as const) {
      expect(planInstruction(say, page())[0]?.ref, say).toBe(ref);
    }
    // Quoted, it is text to type.
    expect(planInstruction('Type "the text below" into the text field', page())[0]?.ref).toBeUndefined();
    expect(planInstruction('Enter the text "-1" into the textbox', page())[0]?.ref).toBeUndefined();
  });

  it('a numeric condition holds the step; any other condition is refused', () => {
    const [buy] = planInstruction('Buy VOP stock when the price is less than $50.00', page());
    expect(buy).toMatchObject({ say: 'Buy VOP stock', when: { subject: 'price', op: '<', value: 50 } });
    expect(planInstruction('When the counter reaches 10, click Stop', page())[0]?.when).toMatchObject({ subject: 'counter', op: '>=', value: 10 });
    expect(planInstruction('Click Submit once the checkbox is ticked', page())[0]?.when).toMatchObject({ kind: 'checked', subject: 'checkbox' });
    // Read once, with the other way to go.
    expect(planInstruction('If the total is over 100 press Yes otherwise No', page())[0]).toMatchObject({
      say: 'press Yes',
      otherwise: 'press No',
      when: { now: true, op: '>', value: 100 },
    });
    for (const say of ['Press Stop as soon as the light turns green', 'Click Next until the last page', 'If the box is empty, type hi']) {
      expect(() => planInstruction(say, page()), say).toThrow(/conditions/);
    }
    expect(says('Click Submit once')).toEqual(['Click Submit once']);
  });

  it('a goal of several steps in one phrase is refused unless the page names it', () => {
    for (const say of [
      'Book a flight from Boston to Denver and a hotel in Denver',
      'Click the best deal',
      'Open the newest article about cats',
      'Like all reviews that are five stars and reply to them',
      // A sequence the page shows over time, never one press (a nameless button may carry a class named "push").
      'Push the buttons in the order displayed.',
      'Click the tiles in the same order they lit up',
      'Press the buttons in the displayed order.',
      'Tap the squares in the same highlighted sequence',
    ]) {
      expect(() => planInstruction(say, page()), say).toThrow(/goal of several steps/);
    }
    // What the agent does choose on the page: a trip's result by its price, time or duration (trips.ts), numbers in order,
    // a number by a property, a set by what it mentions.
    const trip = planInstruction('Book the cheapest one-way flight from Boston to Denver on 12/03', page());
    expect(trip.map((x) => [x.trip, x.tripResult])).toEqual([
      [{ from: 'Boston', to: 'Denver', date: '12/03', way: 'one' }, undefined],
      [undefined, { order: 'cheapest' }],
    ]);
    expect(planInstruction('Click on the numbers in ascending order', page())[0]?.each).toEqual({ order: 'asc' });
    expect(planInstruction('Click the greatest number', page())[0]?.each).toEqual({ pick: 'max' });
    // Cards face down: one step that turns them as it goes, whichever way the turning and the picking are said.
    for (const [say, pick] of [
      ['Find and pick the card with the greatest number, then press submit.', 'max'],
      ['Turn over the cards and choose the one with the smallest number, then click Submit', 'min'],
      ['Find the tile with the largest value, select it, then submit', 'max'],
    ] as const) {
      const steps = planInstruction(say, page([], ['Submit']));
      expect(steps[0]?.each).toEqual({ pick, turn: true });
      expect(steps.map((x) => x.say.toLowerCase()).slice(1)).toEqual([expect.stringMatching(/submit$/)]);
    }
    // "Count the blocks and enter the total": the count is the value entered.
    expect(planInstruction('Count all the blocks and enter the total, then press Submit', page())[0]?.ref).toBe('the number of blocks');
    // A drag said by where it ends: the drag onto that place.
    expect(says('Drag the smaller box so that it is completely inside the larger box.', page())).toEqual(['Drag the smaller box into the larger box']);
    expect(planInstruction('Drag the smaller box so that it is completely inside the larger box.', page())[0]?.dragSized).toEqual({
      what: 'box',
      which: 'small',
      onto: 'box',
      ontoWhich: 'large',
    });
    // One end named otherwise ("the red box") is an ordinary drag onto a target.
    expect(planInstruction('Drag the red box into the larger box', page())[0]?.dragSized).toBeUndefined();
    // "The one" with no cards named is no card.
    expect(planInstruction('Choose the one with the smallest number', page())[0]?.each).toBeUndefined();
    expect(planInstruction('Click all the links that mention cats', page())[0]?.each).toMatchObject({ mention: 'cats', roles: ['link'] });
    expect(planInstruction('Like all posts by Kim', page())[0]?.each).toEqual({ verb: 'like', by: 'Kim' });
    expect(says('Click Latest news', page([], ['Latest news']))).toEqual(['Click Latest news']);
  });

  it('a trip whose result is picked after the search, and a date that holds no second clause', () => {
    const trip = planInstruction('Search for the flight from Anchorage, AK to Cedar Rapids, IA departing on 10/16/2016 and book the cheapest one', page());
    expect(trip.map((x) => [x.trip, x.tripResult])).toEqual([
      [{ from: 'Anchorage, AK', to: 'Cedar Rapids, IA', date: '10/16/2016' }, undefined],
      [undefined, { order: 'cheapest' }],
    ]);
    // Two superlatives contradict each other: refused, never one of them.
    expect(() => planInstruction('Book the cheapest flight from Boston to Denver on 12/03 and choose the fastest one', page())).toThrow(Refusal);
  });

  it('a choice by meaning ("words similar to soft") is refused, not split into names', () => {
    expect(() => planInstruction('Select words similar to soft, tiny and click Submit.', page())).toThrow(Refusal);
    expect(() => planInstruction('Click the synonyms of happy', page())).toThrow(Refusal);
  });

  it('where a value is ("the text below") is never the value, even where a field is called Text or Value', () => {
    expect(planInstruction('Type the text below into the text field and press Submit.', page(['Text']))[0]).toMatchObject({ ref: 'the text below' });
    expect(planInstruction('Enter the value of Color into the text field', page(['Value']))[0]).toMatchObject({ ref: 'the value of Color' });
    expect(says('Enter the zip code 02139', page(['Zip code']))).toEqual(['enter "02139" into the zip code field']);
  });

  it('a style for text: the text selected, then the style button; "hit submit" with no "and" is a step of its own', () => {
    expect(says('Using the text editor, give the text "tincidunt" the style bold and press Submit.')).toEqual([
      'highlight "tincidunt"',
      'click the bold button',
      'press Submit',
    ]);
    expect(says('Make everything italic and press Submit.')).toEqual(['click the text editor', 'press Control+A', 'click the italic button', 'press Submit']);
    expect(says('Underline the word magna')).toEqual(['highlight the word magna', 'click the underline button']);
    // A name, not a text: "the Terms link" is no word to underline; "the selection" is no word on the page.
    expect(says('Make the selection bold')).toEqual(['Make the selection bold']);
    expect(says('Underline the Terms link')).toEqual(['Underline the Terms link']);
    expect(says('Scroll the textarea to the bottom of the text hit submit.')).toEqual(['Scroll the textarea to the bottom of the text', 'hit submit']);
    expect(says('Click the button labeled press submit')).toEqual(['Click the button labeled press submit']);
  });

  it('a question answered by a button names the button by what the page shows', () => {
    expect(planInstruction('How many red items are there?', page())).toEqual([
      { say: 'click the "the number of red items" button', ref: 'the number of red items' },
    ]);
    expect(planInstruction('Click the button that best describes the figure below.', page())[0]?.ref).toBe('the shape of the figure');
    expect(planInstruction('Press the button that correctly denotes how many sides the shape has.', page())[0]?.ref).toBe('the number of sides of the shape');
  });

  it('a sort is one step with its order; two orders that disagree, or an order of no kind, are refused', () => {
    const sortOf = (say: string) => planInstruction(say, page()).map((s) => s.sort ?? s.say);
    expect(sortOf('Sort the numbers in increasing order, starting with the lowest number at the top of the list, then press Submit')).toEqual([
      { by: 'number', order: 'ascending' },
      'press Submit',
    ]);
    expect(sortOf('Drag the numbers into descending order')).toEqual([{ by: 'auto', order: 'descending' }]);
    expect(sortOf('Put the numbers in ascending order, smallest first')).toEqual([{ by: 'number', order: 'ascending' }]);
    expect(sortOf('Arrange the names from Z to A by dragging them')).toEqual([{ by: 'name', order: 'descending' }]);
    expect(sortOf('Sort the list alphabetically and click Save')).toEqual([{ by: 'name', order: 'ascending' }, 'click Save']);
    expect(sortOf('Sort the numbers from largest to smallest')).toEqual([{ by: 'number', order: 'descending' }]);
    // A move of one item is a drag, not a sort; "the largest number first" names no list.
    expect(planInstruction('Move the largest number first', page())[0]?.sort).toBeUndefined();
    expect(planInstruction('Move Company to the 1st position', page())[0]?.drag).toEqual({ target: 'Company', to: 'first' });
    expect(() => planInstruction('Sort the numbers in increasing order, starting with the highest number at the top', page())).toThrow(/two orders/);
    expect(() => planInstruction('Sort the numbers from largest to biggest', page())).toThrow(Refusal);
    expect(() => planInstruction('Sort the tracks in chronological order', page())).toThrow(Refusal);
    // The page's own sort control is for the page to use: no drags; an order its controls do not name is refused.
    expect(() => planInstruction('Sort the list in ascending order', page([], ['Sort ascending']))).toThrow(Refusal);
    expect(() => planInstruction('Sort the numbers in increasing order', page([], ['Sort']))).toThrow(Refusal);
    expect(planInstruction('Sort the list in ascending order', page([], ['Sort in ascending order']))[0]?.sort).toBeUndefined();
  });

  it('a resize by the box grip: which side, which way; "make the text bigger" names no box', () => {
    const resizeOf = (say: string) => planInstruction(say, page())[0]?.resize;
    expect(resizeOf('Resize the textarea so that the width is larger than its initial size then press Submit.')).toEqual({ target: 'textarea', dx: 80, dy: 0 });
    expect(resizeOf('Resize the textarea so that the height is smaller than its initial size')).toEqual({ target: 'textarea', dx: 0, dy: -30 });
    expect(resizeOf('Make the comment box taller and click Save')).toEqual({ target: 'comment box', dx: 0, dy: 80 });
    expect(resizeOf('Enlarge the notes box')).toEqual({ target: 'notes box', dx: 80, dy: 80 });
    expect(resizeOf('Make the text bigger')).toBeUndefined();
    expect(resizeOf('Enlarge the image')).toBeUndefined();
    expect(resizeOf('Narrow down the results by price')).toBeUndefined();
  });

  it('every piece of a kind dragged onto a target is one step', () => {
    expect(planInstruction('Drag all circles into the black box.', page())[0]?.dragEach).toEqual({ what: 'circles', to: 'black box' });
    expect(planInstruction('Put every red square in the box and press Submit', page()).map((s) => s.dragEach ?? s.say)).toEqual([
      { what: 'red square', to: 'box' },
      'press Submit',
    ]);
  });

  it('the shades of a hue are a set chosen on the page; a hue it does not tell apart is refused', () => {
    expect(planInstruction('Select all the shades of blue and press Submit.', page()).map((s) => s.each ?? s.say)).toEqual([{ shade: 'blue' }, 'press Submit']);
    expect(() => planInstruction('Select all the shades of mauve', page())).toThrow(/mauve/);
  });

  it('a context menu is opened by a right-click; what a click is for, said after it, is left out only at a clause end', () => {
    const says = (t: string) => planInstruction(t, page()).map((s) => s.say);
    expect(says('Open the context menu of photo.png and click Open')).toEqual(['right-click photo.png', 'click Open']);
    expect(says('Double-click report.pdf to open it')).toEqual(['Double-click report.pdf']);
    expect(says('Click the link to open it in a new tab')).toEqual(['Click the link to open it in a new tab']);
    expect(says('Select the following color #8d3b5e with the color picker and hit Submit.')).toEqual(['set the color to #8d3b5e', 'hit Submit']);
    // A field labelled Color takes a value read off the page: no colour is chosen.
    const labelled = { ...page(), fields: ['Country', 'Color'] };
    expect(planInstruction('Enter the value that corresponds with each label into the form and submit when done.', labelled).map((s) => s.say)).toEqual([
      'enter "the value of Country" into the Country field',
      'enter "the value of Color" into the Color field',
      'click submit',
    ]);
    expect(says('Pick Navy from the colour picker')).toEqual(['set the color to #000080']);
  });

  it('a dialog closed is one step when the page shows one; Escape only when it is the means', () => {
    const withDialog = { ...page(), roles: { dialog: 1 } };
    expect(planInstruction('Close the welcome message', withDialog)[0]?.dismiss).toEqual({ words: 'welcome' });
    expect(planInstruction('Press Escape to close the dialog', withDialog)[0]?.dismiss).toEqual({ words: '', key: 'Escape' });
    expect(planInstruction('Dismiss the cookie consent popup', withDialog)[0]?.dismiss).toEqual({ words: 'cookie consent' });
    // No dialog on the page: the words are left to name a control ("Close the message" in a mail reader).
    expect(planInstruction('Close the welcome message', page())[0]?.dismiss).toBeUndefined();
    expect(planInstruction('Close the dialog and press Submit', withDialog)[0]?.dismiss).toBeUndefined();
  });

  it('scrolling until a target shows, or going through a carousel named, is one step', () => {
    const find = (t: string) => planInstruction(t, page())[0]?.scrollFind;
    expect(find('Scroll down the feed until you find Like post 13 and click it')).toEqual({ target: 'Like post 13', within: 'feed' });
    expect(find('Scroll until "Load report" appears, then click it')).toEqual({ target: 'Load report' });
    expect(find('Scroll down the page until you see Accept and click it')).toEqual({ target: 'Accept' });
    // A carousel only when one is named: "click Fish market" alone never walks a Next control.
    const slide = (t: string) => planInstruction(t, page())[0]?.slideFind;
    expect(slide('Go through the carousel to find the Lighthouse tour and click it')).toEqual({ target: 'the Lighthouse tour' });
    expect(slide('Click Fish market in the carousel')).toEqual({ target: 'Fish market' });
    expect(slide('Click on Fish market')).toBeUndefined();
  });

  it('a kind of menu opened is a step of its own; a menu named by its name is hovered through', () => {
    const says = (t: string) => planInstruction(t, page()).map((s) => (s.openMenu ? `open menu ${s.openMenu.kind ?? ''}`.trim() : s.say));
    expect(says('Expand the pie menu below and click on the item labeled "Q".')).toEqual(['open menu pie', 'click on the item labeled "Q"']);
    expect(says('Open the menu and click Settings')).toEqual(['open menu', 'click Settings']);
    expect(says('Open the pie menu, then click x')).toEqual(['open menu pie', 'click x']);
    expect(says('In the Shop menu, choose Men, then Shoes')).toEqual(['hover over "Shop"', 'hover over "Men"', 'click "Shoes"']);
    expect(says('Open the File menu, then click Save')).toEqual(['Open the File menu', 'click Save']);
  });

  it('a rating by stars is one step with its number; a number past the scale is refused; other giving is words', () => {
    const rate = (t: string) => planInstruction(t, page()).map((s) => s.rate ?? s.say);
    expect(rate('Give the product a rating of 3 stars')).toEqual([{ stars: 3 }]);
    expect(rate('Rate this restaurant 2 stars, then press Submit')).toEqual([{ stars: 2 }, 'press Submit']);
    expect(rate('Rate the movie 4 out of 5')).toEqual([{ stars: 4, of: 5 }]);
    expect(rate('Leave a 5-star review')).toEqual([{ stars: 5 }]);
    expect(rate('Give the dog 2 treats')).toEqual(['Give the dog 2 treats']);
    expect(rate('Set the rating to 4 and click Submit')).toEqual(['Set the rating to 4', 'click Submit']);
    expect(() => planInstruction('Give it 7 out of 5 stars', page())).toThrow(Refusal);
  });

  it('keys held together, given as the means, are pressed; a means that is no key combination stays words', () => {
    const says = (t: string) => planInstruction(t, page()).map((s) => s.say);
    expect(says('Press the key combination Ctrl+Shift+P')).toEqual(['press Ctrl+Shift+P']);
    expect(says('Save the document with Ctrl+S')).toEqual(['press Ctrl+S']);
    expect(says('Use Ctrl+K to search, then press Enter')).toEqual(['press Ctrl+K', 'press Enter']);
    expect(says('Log in with Alice and press Submit')).toEqual(['Log in with Alice', 'press Submit']);
    expect(says('Enter the name with care and press Ctrl+Enter')).toEqual(['Enter the name with care', 'press Ctrl+Enter']);
  });

  it('text transforms change the value typed', () => {
    expect(says('Enter "Hello World" in all lower case and press Submit')[0]).toBe('enter "hello world" into the text field');
    expect(says('Type "abc" into the box in upper case')[0]).toBe('Type "ABC" into the box');
    expect(says('Type "stressed" reversed into the box, then press Submit')[0]).toMatch(/"desserts"/);
  });
});

describe('a code given with what it is called', () => {
  it('types the code as written into the code, or into the field named after it', () => {
    expect(says('Enter the 6-digit code 482913 and press Verify')).toEqual(['enter "482913" into the code', 'press Verify']);
    expect(says('Type the one-time password 5521, then press Submit')[0]).toBe('enter "5521" into the code');
    expect(says('Type in the code 550213')[0]).toBe('enter "550213" into the code');
    expect(says('Enter the new PIN 1234 and click Save')[0]).toBe('enter "1234" into the new PIN');
    expect(says('Enter the verification code 48 29 13')[0]).toBe('enter "48 29 13" into the verification code');
    expect(says('Enter the code SAVE20 in the promo field and click Apply')[0]).toBe('enter "SAVE20" into the promo field');
  });

  it('leaves words that are not a code as written to the readings that look for them on the page', () => {
    expect(planInstruction('Enter the code shown on the page and press Verify', page())[0]).toMatchObject({ ref: 'the code shown' });
    expect(planInstruction('Enter the code a1b2c3', page())[0]!.ref).toBeDefined();
    expect(says('Enter the zip code 02139', page(['Zip code']))).toEqual(['enter "02139" into the zip code field']);
  });
});

describe('warnings gone through one after another', () => {
  it('reads a series of warnings as consent given stage after stage, and nothing else as one', () => {
    const series = { kind: 'warning', press: true, series: true };
    expect(planInstruction('Navigate a series of intimidating warnings and confirmations.', page())[0]!.consent).toEqual(series);
    expect(planInstruction('Click through the warnings to see the content', page())[0]!.consent).toEqual(series);
    expect(planInstruction('Acknowledge the content warning', page())[0]!.consent).toEqual({ kind: 'warning' });
    expect(planInstruction('Navigate to the warnings page', page())[0]!.consent).toBeUndefined();
  });
});

describe('an item looked for through the menus', () => {
  it('opens the menus only when the item is said to be in them, and clicks only when asked', () => {
    expect(planInstruction('Navigate through a menu bar to find the secret option', page())[0]!.menuFind).toEqual({ target: 'the secret option' });
    expect(planInstruction('Find the Print preview option in the menus and click it', page())[0]!.menuFind).toEqual({
      target: 'the Print preview option',
      click: true,
    });
    expect(planInstruction('Find the Menu settings link in the sections below and click it', page())[0]).toMatchObject({
      say: 'click the Menu settings link',
      search: true,
    });
  });
});

describe('a target that moves', () => {
  it('is said with how it moves or looks before its moving', () => {
    expect(planInstruction('Click the fast moving target', page())[0]!.moving).toEqual({ noun: 'target' });
    expect(planInstruction('Click the small fast-moving ball 3 times', page())[0]!.moving).toBeUndefined();
    expect(planInstruction('hit the slow bouncing ball 3 times', page())[0]!.moving).toEqual({ noun: 'ball', times: 3 });
    expect(planInstruction('Click the fast button', page())[0]!.moving).toBeUndefined();
  });
});

describe('an order from a menu', () => {
  it('names its items, or how many of a kind', () => {
    expect(planInstruction('Order one of each item: Garlic bread, Cheese wheel', page())[0]!.order).toEqual({ items: ['Garlic bread', 'Cheese wheel'] });
    expect(planInstruction('Order one of each item: Chocolate cake and Chicken wings', page())[0]!.order).toEqual({
      items: ['Chocolate cake', 'Chicken wings'],
    });
    expect(planInstruction('Order 3 items that are vegan', page())[0]!.order).toEqual({ kind: 'vegan', count: 3 });
    expect(planInstruction('Order two dishes that are gluten-free.', page())[0]!.order).toEqual({ kind: 'gluten-free', count: 2 });
    expect(planInstruction('Order the list by price', page())[0]!.order).toBeUndefined();
  });
});

describe('a set dragged into one box and the rest into another', () => {
  it('keeps both targets', () => {
    expect(planInstruction('Drag all triangles into the left box, and everything else into the right box.', page())[0]!.dragEach).toEqual({
      what: 'triangles',
      to: 'left box',
      rest: 'right box',
    });
    expect(planInstruction('Drag all circles into the black box.', page())[0]!.dragEach).toEqual({ what: 'circles', to: 'black box' });
  });
});

describe('what should be done to a message', () => {
  it('is the action on it, said as one', () => {
    const say = (t: string) => planInstruction(t, page())[0]!.say;
    expect(say("Lyn's email should be deleted from the inbox.")).toBe('delete the email from Lyn');
    expect(say('I want the email from Lyn deleted')).toBe('delete the email from Lyn');
    expect(say("Please delete Lyn's emails.")).toBe('delete all emails from Lyn');
    expect(planInstruction("Lucia's email needs to be forwarded to Kimberly.", page()).map((s) => s.say)).toContain('click forward');
  });
});

describe('the built-in planner: grid points, found messages, whole paragraphs', () => {
  it('a grid point by its coordinates is one step that reads the grid', () => {
    expect(planInstruction('Click on the grid coordinate (-2,1).', page())[0]?.coord).toEqual({ x: -2, y: 1 });
    expect(planInstruction('Click the cell at (1, -3) on the grid', page())[0]?.coord).toEqual({ x: 1, y: -3 });
    expect(planInstruction('Click the (1, 2) button', page())[0]?.coord).toBeUndefined();
  });
  it('a found message sent an answer, said of "that X sent", tagged as important', () => {
    const says = (t: string) => planInstruction(t, page()).map((s) => s.say);
    expect(says('Please find Malva\'s last email and send him the answer, "Ut."')).toContain('click reply');
    expect(says('Find the email that Malva sent and forward it to Angil.')).toContain('click forward');
    expect(planInstruction('Search for an email from Nadia and tag it as important', page())[0]?.each).toMatchObject({
      verb: 'mark as important',
      by: 'Nadia',
    });
  });
});
