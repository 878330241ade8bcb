import { adaptiveText, parseAdaptForm } from '../adapt';

describe('parseAdaptForm', () => {
  it('gives the bounds of two whole numbers, minimum first', () => {
    expect(parseAdaptForm('1', ' 4 ')).toEqual({ ok: true, value: { minimum: 1, maximum: 4 } });
    expect(parseAdaptForm('2', '2')).toEqual({ ok: true, value: { minimum: 2, maximum: 2 } });
  });

  it.each([
    ['', '4', 'minimum workers must be a whole number from 1 to 256, got nothing'],
    ['0', '4', "minimum workers must be a whole number from 1 to 256, got '0'"],
    ['1.5', '4', "minimum workers must be a whole number from 1 to 256, got '1.5'"],
    ['1', 'many', "maximum workers must be a whole number from 1 to 256, got 'many'"],
    ['1', '300', "maximum workers must be a whole number from 1 to 256, got '300'"],
    ['3', '2', 'maximum workers must be at least the minimum (3), got 2']
  ])('refuses %p to %p naming the input', (minimum, maximum, error) => {
    expect(parseAdaptForm(minimum, maximum)).toEqual({ ok: false, error });
  });
});

describe('adaptiveText', () => {
  it('says whether and between which bounds the cluster adapts', () => {
    expect(adaptiveText(null)).toMatch(/^fixed size/);
    const adaptive = { minimum: 1, maximum: 4, wait: 10, interval: 1, error: null };
    expect(adaptiveText(adaptive)).toBe(
      'adapting between 1 and 4 workers, idle ones stopped after 10 s'
    );
    expect(adaptiveText({ ...adaptive, error: 'TimeoutError' })).toMatch(
      /\(last problem: TimeoutError\)$/
    );
  });
});
