import { describe, expect, it } from 'vitest';
import { isoDate, isoTime, valueForInput } from '../../src/models/local/input-values';

describe('values as people write them, for date and time inputs', () => {
  it('reads dates month first when slashed, and by month name', () => {
    expect(isoDate('11/05/2016')).toBe('2016-11-05');
    expect(isoDate('5/9/16')).toBe('2016-05-09');
    expect(isoDate('25/12/2020')).toBe('2020-12-25');
    expect(isoDate('2016-11-05')).toBe('2016-11-05');
    expect(isoDate('May 12, 2016')).toBe('2016-05-12');
    expect(isoDate('12th of')).toBeNull();
    expect(isoDate('12 September 2021')).toBe('2021-09-12');
    expect(isoDate('February 30, 2021')).toBeNull();
    expect(isoDate('13/13/2020')).toBeNull();
    expect(isoDate('tomorrow')).toBeNull();
  });
  it('reads times with and without am/pm', () => {
    expect(isoTime('3:15 PM')).toBe('15:15');
    expect(isoTime('12:05 am')).toBe('00:05');
    expect(isoTime('12 pm')).toBe('12:00');
    expect(isoTime('3pm')).toBe('15:00');
    expect(isoTime('9:30 a.m.')).toBe('09:30');
    expect(isoTime('15:15')).toBe('15:15');
    expect(isoTime('07:45:30')).toBe('07:45:30');
    expect(isoTime('noon')).toBe('12:00');
    expect(isoTime('13:00 pm')).toBeNull();
    expect(isoTime('25:00')).toBeNull();
    expect(isoTime('15')).toBeNull();
  });
  it('converts only for the input types that need it, and leaves what it cannot read', () => {
    expect(valueForInput('date', '11/05/2016')).toBe('2016-11-05');
    expect(valueForInput('time', '3:15 PM')).toBe('15:15');
    expect(valueForInput('month', 'May 2016')).toBe('2016-05');
    expect(valueForInput('datetime-local', '11/05/2016 3:15 PM')).toBe('2016-11-05T15:15');
    expect(valueForInput('color', '#FF8800')).toBe('#ff8800');
    expect(valueForInput('color', '#f80')).toBe('#ff8800');
    expect(valueForInput('color', 'orange')).toBe('orange');
    expect(valueForInput('date', 'soon')).toBe('soon');
    expect(valueForInput('text', '11/05/2016')).toBe('11/05/2016');
  });
});
