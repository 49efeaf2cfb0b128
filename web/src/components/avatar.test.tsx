import { describe, expect, it } from 'vitest';
import { initialsOf } from './avatar.tsx';

describe('initialsOf', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('ada byron lovelace')).toBe('AL');
    expect(initialsOf('Ada')).toBe('A');
  });

  it('uses letters only: no emoji, digits or punctuation', () => {
    expect(initialsOf('🌟 Star Reader')).toBe('SR');
    expect(initialsOf('Ada Lovelace 🌟')).toBe('AL');
    expect(initialsOf('(Ada) "Lovelace"')).toBe('AL');
    expect(initialsOf('Ada 2nd')).toBe('A');
    expect(initialsOf('👩‍🚀Nova')).toBe('N');
    expect(initialsOf('R2D2 Unit')).toBe('RU');
  });

  it('keeps letters of any script', () => {
    expect(initialsOf('Ёлка Ümlaut')).toBe('ЁÜ');
    expect(initialsOf('Ελένη Παππά')).toBe('ΕΠ');
  });

  it('falls back to "?" when there is no letter at all', () => {
    expect(initialsOf('🌟🌟')).toBe('?');
    expect(initialsOf('1234')).toBe('?');
    expect(initialsOf('   ')).toBe('?');
  });
});
