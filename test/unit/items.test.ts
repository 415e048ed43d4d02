/** Items drawn as plain blocks, read back from a flat outline; who an item is by; the plans that act on one. */
import { describe, expect, it } from 'vitest';
import type { OutlineLine } from '../../src/protocol/model';
import { flatItems, flatItemsBy, isBy } from '../../src/models/local/items';
import { buildOutline } from '../../src/models/local/outline';
import { planInstruction } from '../../src/models/local/plan';

let n = 0;
const el = (role: string, name: string): OutlineLine => ({ depth: 0, kind: 'element', role, name, id: `e${++n}`, states: {} });
const text = (t: string): OutlineLine => ({ depth: 0, kind: 'text', text: t, states: {} }) as unknown as OutlineLine;
const post = (head: string, body: string): OutlineLine[] => [
  text(head),
  text(body),
  el('clickable', 'Reply'),
  el('clickable', 'Like'),
  el('clickable', 'More'),
];
const none = { fields: [], names: [] };

describe('items of a list drawn as plain blocks', () => {
  it('reads one block per row of controls, its words before the row', () => {
    const nodes = buildOutline([...post('Ruth@ruth2h', 'Ac tellus mauris.'), ...post('Mauris@mauris3h', 'Nisl pretium.'), el('link', 'Load more')]);
    const items = flatItems(nodes[0].parent!)!;
    expect(items.map((b) => b.text)).toEqual(['Ruth@ruth2h Ac tellus mauris.', 'Mauris@mauris3h Nisl pretium.']);
    expect(items[1].controls.map((c) => c.name)).toEqual(['Reply', 'Like', 'More']);
    // "@mauris" is the second post's handle, not the first post's word.
    expect(flatItemsBy('@mauris', nodes).map((b) => b.text)).toEqual(['Mauris@mauris3h Nisl pretium.']);
  });

  it('leaves what stands above the list (a heading) out of the first item', () => {
    const nodes = buildOutline([text('Posts by Kim'), ...post('Ann@ann', 'One.'), ...post('Bo@bo', 'Two.')]);
    expect(flatItems(nodes[0].parent!)!.map((b) => b.text)).toEqual(['Ann@ann One.', 'Bo@bo Two.']);
    expect(flatItemsBy('Kim', nodes)).toEqual([]);
  });

  it('reads none when words follow the last row or rows overlap: which words go with which row is unknown', () => {
    expect(flatItems(buildOutline([...post('Ann', 'One.'), ...post('Bo', 'Two.'), text('Three.')])[0].parent!)).toBeNull();
    const overlapping = [text('A'), el('button', 'Like'), el('button', 'Like'), el('button', 'Share'), text('B'), el('button', 'Share')];
    expect(flatItems(buildOutline(overlapping)[0].parent!)).toBeNull();
    expect(flatItems(buildOutline(post('Only', 'One post.'))[0].parent!)).toBeNull();
  });

  it('matches a handle as that handle, and a name by its words', () => {
    expect(isBy('@jane', 'Jane Doe@jane New post')).toBe(true);
    expect(isBy('@jane', 'Jan Novak@jan_n Prague')).toBe(false);
    expect(isBy('@ruth', 'x@ruth2 y')).toBe(false);
    expect(isBy('@kim', 'write to kim@x.com')).toBe(false);
    expect(isBy('Kim Park', 'Kim Park@kim Pancakes')).toBe(true);
  });
});

describe('plans on one message or post', () => {
  it('reads "find the email by X and ..." as the one goal it is', () => {
    expect(planInstruction('Find the email by Lyn and click the trash icon to delete it.', none)).toEqual([
      { say: 'delete the email from Lyn', each: { verb: 'delete', by: 'Lyn', one: true } },
    ]);
    const fwd = planInstruction('Find the email by Lucia and forward that email to Kimberly.', none);
    expect(fwd.map((s) => s.say)).toEqual(['open the item from "Lucia"', 'click forward', 'enter "Kimberly" into the to field', 'click send']);
    const reply = planInstruction('Find the email by Jaimie and reply to them with the text "Fusce in."', none);
    expect(reply[2].say).toBe('enter "Fusce in." into the reply field');
    // A rest that is not about the item stays as it was said.
    expect(planInstruction('Find the email by Ann and tell her I am late', none)).toEqual([{ say: 'Find the email by Ann and tell her I am late' }]);
  });

  it('reads a message sent on said other ways, and never types a recipient that is no one', () => {
    const to = (say: string) => planInstruction(say, none).find((s) => s.say.includes('into the to field'))?.say;
    for (const say of [
      'Send the email from Lucia to Kimberly',
      "Pass Lucia's message on to Kimberly",
      'Could you forward the email from Lucia to Kimberly?',
      'Forward to Kimberly the email from Lucia',
      'Email Kimberly the message Lucia sent',
      'Forward the email Lucia sent to Kimberly',
      'Send Kimberly the email from Lucia',
      'Find the email from Lucia and give it to Kimberly.',
      'Find the first email from Lucia and forward it to Kimberly',
      'Locate the most recent message from Lucia, then pass it on to Kimberly',
      "Give Kimberly Lucia's Email",
      'Pull up the email from Lucia and forward it to Kimberly.',
      "I'd like to send Kimberly the email I got from Lucia.",
      'Send Kimberly the email written by Lucia.',
      "Lucia's email, will you forward that to Kimberly?",
      'Lucia wrote an email that needs to be forwarded to Kimberly.',
      'Forward the email Lucia wrote to Kimberly',
      'Forward the email from Lucia in the email app to Kimberly.',
      'Find the message by Lucia in your inbox and send it to Kimberly',
    ])
      expect(to(say), say).toBe('enter "Kimberly" into the to field');
    expect(to('Forward the email from Bob to dana@contoso.com')).toBe('enter "dana@contoso.com" into the to field');
    // "the team" is no one a message can be sent to: no step types it.
    expect(to('Send the email from Lucia to the team')).toBeUndefined();
    // Three names before the possessive: where the recipient ends is not said.
    expect(to("Give Ada Lovelace Grace's email")).toBeUndefined();
    expect(planInstruction('Send a reply to Jaimie: "Fusce in."', none)[2]?.say).toBe('enter "Fusce in." into the reply field');
    expect(planInstruction('Get rid of the message from Lyn', none)[0]?.each).toEqual({ verb: 'delete', by: 'Lyn', one: true });
    expect(planInstruction('Delete the email that Lyn sent', none)[0]?.each).toEqual({ verb: 'delete', by: 'Lyn', one: true });
    expect(planInstruction('Trash that email from Lyn.', none)[0]?.each).toEqual({ verb: 'delete', by: 'Lyn', one: true });
    // A day the page's list is not read for is not dropped from the words: the step stays as said.
    expect(planInstruction('Delete the email that Lyn sent yesterday', none)[0]?.each).toBeUndefined();
    // A closing courtesy is not part of the text; words after a quoted text make it no reply the planner writes.
    expect(planInstruction('Reply to Jaimie with "Fusce in.", please.', none)[2]?.say).toBe('enter "Fusce in." into the reply field');
    expect(planInstruction('Respond to Jaimie\'s email with the text, "Fusce in.".', none)[2]?.say).toBe('enter "Fusce in." into the reply field');
    expect(planInstruction("Mark Kaila's last email as important", none)[0]?.each).toEqual({
      verb: 'mark as important',
      by: 'Kaila',
      one: true,
      standIn: 'star',
    });
    // Where the messages are is the page: "in the app" alone may be a part of a name, and stays.
    expect(planInstruction('Delete the message from Lyn in your inbox', none)[0]?.each).toEqual({ verb: 'delete', by: 'Lyn', one: true });
    expect(planInstruction('Click the button in the app', none)).toEqual([{ say: 'Click the button in the app' }]);
    expect(planInstruction('The email from Lyn, could you delete it?', none)[0]?.each).toEqual({ verb: 'delete', by: 'Lyn', one: true });
    expect(planInstruction('Mark all emails from Kaila as important', none)[0]?.each).toMatchObject({ verb: 'mark as important', by: 'Kaila', one: true });
    // "from yesterday" is no part of a name: no step opens an item by "Lucia from yesterday".
    expect(planInstruction("Forward Lucia's email from yesterday to Kimberly", none).some((s) => s.openItem !== undefined)).toBe(false);
    expect(planInstruction('Reply to Alice with thanks', none)[2]?.say).toBe('enter "thanks" into the reply field');
    expect(planInstruction("Reply to the email from Alice with 'Thanks!' and star it", none).some((s) => s.say.startsWith('enter'))).toBe(false);
  });

  it('reads a control named on a post, one or all, and a mark', () => {
    expect(planInstruction('For the user @jane, click on the "Share" button.', none)[0].each).toEqual({ verb: 'share', by: '@jane', one: true });
    expect(planInstruction('Click the "Like" button on all posts by @kim', none)[0].each).toEqual({ verb: 'like', by: '@kim' });
    expect(planInstruction('Click on the like button of Omar Haddad', none)[0].each).toEqual({ verb: 'like', by: 'Omar Haddad', one: true });
    expect(planInstruction('Mark the email from Alice as important', none)[0].each).toEqual({
      verb: 'mark as important',
      by: 'Alice',
      one: true,
      standIn: 'star',
    });
    // "of the second post" names no author: left to the single step.
    expect(planInstruction('Click the Like button of the second post', none)[0].each).toBeUndefined();
  });
});
