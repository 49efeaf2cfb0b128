import { useState } from 'react';
import { MESSAGES, type InviteCode } from '@margins/common';
import { ApiError } from '../../api/client.ts';
import { generateInviteCode } from '../../api/profile.ts';
import { useFlash, useToast } from '../../components/feedback/feedback.tsx';
import { copyTextOrThrow as copyText } from '../../lib/copy-text.ts';
import { formatDate } from '../../lib/dates.ts';

function inviteUrl(code: string): string {
  return `${window.location.origin}/auth/invite/landing/${encodeURIComponent(code)}`;
}

/** Platform invite codes: the list, "Generate invite code" and a copy button per code. */
export function InvitesTab({
  initialCodes,
  initialRemaining,
  invitesEnabled,
}: {
  initialCodes: InviteCode[];
  initialRemaining: number;
  invitesEnabled: boolean;
}) {
  const flash = useFlash();
  const toast = useToast();
  const [codes, setCodes] = useState(initialCodes);
  const [remaining, setRemaining] = useState(initialRemaining);
  const [generating, setGenerating] = useState(false);

  const handleGenerate = async () => {
    setGenerating(true);
    try {
      const response = await generateInviteCode();
      setCodes((current) => [...current, response.invite_code]);
      setRemaining(response.invites_remaining);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        flash(MESSAGES.noMoreInvites);
        setRemaining(0);
      } else {
        flash(error instanceof ApiError ? error.error : MESSAGES.serverCommunication);
      }
    } finally {
      setGenerating(false);
    }
  };

  const handleCopy = async (code: string) => {
    try {
      await copyText(inviteUrl(code));
      toast(MESSAGES.copied);
    } catch {
      flash('Copying is blocked here. Select the code and copy it yourself.');
    }
  };

  return (
    <div>
      <p className="text-muted">
        {invitesEnabled
          ? 'Margins is invite-only for now. Each code lets one friend finish signing up; send them the link.'
          : 'Sign-up is open right now, so nobody needs a code — but an invite link is still a warm way to bring a friend along.'}
      </p>
      <div className="mt-5 flex flex-wrap items-center gap-4">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void handleGenerate()}
          disabled={generating}
        >
          {generating ? 'Generating…' : 'Generate invite code'}
        </button>
        <p className="text-sm text-muted" data-testid="invites-remaining">
          {remaining === 1 ? '1 invite left' : `${remaining} invites left`}
        </p>
      </div>
      {codes.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-line px-4 py-6 text-center text-muted">
          You have not generated any invite codes yet.
        </p>
      ) : (
        <ul
          className="mt-6 divide-y divide-line rounded-xl border border-line"
          aria-label="Invite codes"
        >
          {codes.map((invite) => (
            <li
              key={invite.code}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5"
              data-invite-code={invite.code}
            >
              <code className="font-mono text-base font-semibold tracking-wider">
                {invite.code}
              </code>
              <span
                className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
                  invite.redeemed ? 'bg-sunken text-muted' : 'bg-success-soft text-success'
                }`}
              >
                {invite.redeemed ? 'Redeemed' : 'Available'}
              </span>
              <span className="text-sm text-muted">{formatDate(invite.created)}</span>
              <button
                type="button"
                className="btn btn-secondary ml-auto min-h-8 px-3 py-1 text-xs"
                onClick={() => void handleCopy(invite.code)}
                disabled={invite.redeemed}
                aria-label={`Copy invite link for ${invite.code}`}
              >
                Copy link
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
