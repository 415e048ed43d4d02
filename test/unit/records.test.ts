/** A person's record in a list of records, and the control of one of its fields. */
import { describe, expect, it } from 'vitest';
import type { OutlineLine } from '../../src/protocol/model';
import { fieldControl, findRecord } from '../../src/models/local/records';
import { buildOutline } from '../../src/models/local/outline';
import { planInstruction } from '../../src/models/local/plan';

let n = 0;
const el = (role: string, name: string, depth = 0, states = {}): OutlineLine => ({ depth, kind: 'element', role, name, id: `e${++n}`, states });
const text = (t: string, depth = 0): OutlineLine => ({ depth, kind: 'text', text: t, states: {} }) as unknown as OutlineLine;
/** A contact drawn as its name, then a list of labelled links. */
const contact = (name: string, phone: string, email: string): OutlineLine[] => [
  text(name),
  el('list', ''),
  el('listitem', 'Phone:', 1),
  el('link', phone, 2),
  el('listitem', 'Email:', 1),
  el('link', email, 2),
];
const picked = (nodes: ReturnType<typeof buildOutline>, who: string, field: string) => {
  const r = findRecord(nodes, who);
  if (!r || 'why' in r) return r;
  const c = fieldControl(r.lines, field);
  return 'why' in c ? c : c.name;
};

describe("a person's record and its fields", () => {
  it('the lines from the name to the next name are the record; the field is the control its label names', () => {
    const nodes = buildOutline([...contact('Lynnette Hale', '(318) 555-0148', 'lh@x.test'), ...contact('Lynne Ortiz', '(808) 555-0160', 'lo@x.test')]);
    expect(picked(nodes, 'Lynne Ortiz', 'email')).toBe('lo@x.test');
    // A first name is the name's first word, never part of a word ("Lynne" is not "Lynnette").
    expect(picked(nodes, 'Lynne', 'phone')).toBe('(808) 555-0160');
    expect(picked(nodes, 'Hale', 'phone')).toBeNull();
    expect(picked(nodes, 'Lynne Ortiz', 'address')).toEqual({ why: 'the record shows no address to click' });
  });

  it('a table row is a record by one of its cells; a value without its label is taken only by its shape', () => {
    const nodes = buildOutline([
      el('table', ''),
      el('row', 'Name | Joined | Phone', 1),
      el('row', 'Chen Wei | 2024-01-31 | +44 20 7946 0103', 1),
      el('link', '2024-01-31', 2),
      el('link', '+44 20 7946 0103', 2),
    ]);
    expect(picked(nodes, 'Chen Wei', 'phone')).toBe('+44 20 7946 0103');
    expect(picked(nodes, 'Chen Wei', 'address')).toEqual({ why: 'the record shows no address to click' });
  });

  it('two records by the name are a refusal', () => {
    const nodes = buildOutline([...contact('Leo Marsh', '1234567', 'a@x.test'), ...contact('Leo Marsh', '7654321', 'b@x.test')]);
    expect(findRecord(nodes, 'Leo Marsh')).toEqual({ why: '2 records on this page are named "Leo Marsh"' });
  });

  it('the planner writes one step, whichever page shows the person', () => {
    const none = { fields: [], names: [] };
    expect(planInstruction('Find Lynne in the contact book and click on her phone number.', none)).toEqual([
      { say: 'click the phone in the record of "Lynne"', record: { field: 'phone', who: 'Lynne' } },
    ]);
    expect(planInstruction("Click on Omar Reyes's email in the directory", none)[0]?.record).toEqual({ field: 'email', who: 'Omar Reyes' });
    expect(planInstruction('Find Bob in the contact book', none)[0]?.record).toBeUndefined();
  });
});
