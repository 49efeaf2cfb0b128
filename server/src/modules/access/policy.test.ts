import { describe, expect, it } from 'vitest';
import { canRead, NO_READER_ACCESS, opensByReport, readGate, readRefusal } from './policy.ts';
import { granted, policyManuscript, reported, VIEWERS } from './test-helpers.ts';

describe('the reading rule', () => {
  it('opensByReport: only where staff open what a reader could not', () => {
    const staff = [VIEWERS.moderator, VIEWERS.admin];
    for (const user of staff) {
      expect(opensByReport(user, policyManuscript('private'), reported)).toBe(true);
      expect(opensByReport(user, policyManuscript('restricted'), reported)).toBe(true);
      expect(opensByReport(user, policyManuscript('public'), reported)).toBe(false);
      expect(opensByReport(user, policyManuscript('private'), NO_READER_ACCESS)).toBe(false);
      // Invited like any reader: no opening to record.
      expect(opensByReport(user, policyManuscript('private'), { ...reported, granted: true })).toBe(
        false,
      );
    }
    expect(opensByReport(VIEWERS.admin, policyManuscript('public', true), reported)).toBe(true);
    expect(opensByReport(VIEWERS.moderator, policyManuscript('public', true), reported)).toBe(
      false,
    );
    expect(opensByReport(VIEWERS.stranger, policyManuscript('private'), reported)).toBe(false);
  });

  it('staff meet the gates like readers unless a report is open', () => {
    const mature = { ...policyManuscript('public'), nsfw: true };
    expect(readGate(VIEWERS.moderator, mature, NO_READER_ACCESS)).toBe('mature');
    expect(readGate(VIEWERS.moderator, mature, reported)).toBeNull();
    expect(readGate(VIEWERS.owner, mature, NO_READER_ACCESS)).toBeNull();
  });

  it('lets invited readers in through the access seam, never anonymous ones', () => {
    for (const visibility of ['private', 'restricted'] as const) {
      expect(canRead(VIEWERS.stranger, policyManuscript(visibility), granted)).toBe(true);
      expect(canRead(VIEWERS.anonymous, policyManuscript(visibility), granted)).toBe(false);
    }
    expect(canRead(VIEWERS.stranger, policyManuscript('private', true), granted)).toBe(false);
  });
});

describe('readRefusal', () => {
  it('asks anonymous visitors to log in only where that would be enough', () => {
    expect(readRefusal(null, policyManuscript('logged_in'))).toBe('login');
    expect(readRefusal(null, policyManuscript('private'))).toBe('hidden');
    expect(readRefusal(null, policyManuscript('restricted'))).toBe('hidden');
    expect(readRefusal(null, policyManuscript('logged_in', true))).toBe('hidden');
    expect(readRefusal(VIEWERS.stranger, policyManuscript('private'))).toBe('hidden');
    expect(readRefusal(null, policyManuscript('public'))).toBeNull();
  });
});
