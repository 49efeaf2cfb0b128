import { useState, type ReactNode } from 'react';
import { MESSAGES, type Invite } from '@margins/common';
import { decideAccessRequest, deleteInvite } from '../../api/access.ts';
import { errorMessage } from '../../api/client.ts';
import { formatShortDate } from '../../lib/dates.ts';
import { Avatar } from '../avatar.tsx';
import { ConfirmDialog } from '../dialog.tsx';
import { useFlash, useToast } from '../feedback/feedback.tsx';
import { visibilityLabel } from '../manuscripts/visibility.ts';
import { copyTextOrThrow as copyText } from '../../lib/copy-text.ts';
import { inviteePrimary, inviteeSecondary, STATUS_LABELS, statusTone } from './invite-labels.ts';

const TONES = {
  good: 'border-success/30 bg-success-soft text-success',
  wait: 'border-accent/30 bg-accent-soft text-accent',
  off: 'border-line bg-sunken text-muted',
} as const;

function Badge({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2 py-0.5 text-[0.7rem] font-semibold tracking-wide whitespace-nowrap uppercase ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

function Row({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <li
      className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-line py-3 last:border-b-0"
      data-invite-row={testId}
    >
      {children}
    </li>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mt-5 first:mt-0">
      <h4 className="eyebrow mb-1">{title}</h4>
      <ul>{children}</ul>
    </div>
  );
}

/** A small "Copy" for a link of the list ("Copied!" for a moment). */
function CopyLinkButton({ link }: { link: string }) {
  const toast = useToast();
  const flash = useFlash();
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-ghost min-h-8 px-3"
      onClick={() => {
        copyText(link)
          .then(() => {
            setCopied(true);
            toast(MESSAGES.copied);
            setTimeout(() => setCopied(false), 2000);
          })
          .catch(() => flash('Copying is blocked here. Select the link and copy it yourself.'));
      }}
    >
      {copied ? MESSAGES.copied : 'Copy'}
    </button>
  );
}

/** The confirmation's wording for removing an invite, link or reader. */
function removalWording(invite: Invite): { title: string; body: string; confirm: string } {
  if (invite.kind === 'link') {
    return {
      title: 'Delete this link?',
      body: 'The link stops working, and readers who came in through it lose their access.',
      confirm: 'Delete link',
    };
  }
  const who = inviteePrimary(invite) ?? 'this reader';
  if (invite.status === 'pending') {
    return {
      title: `Withdraw the invite to ${who}?`,
      body: 'They will no longer find it on their dashboard.',
      confirm: 'Withdraw invite',
    };
  }
  return {
    title: `Remove ${who}?`,
    body: 'They lose their access to this manuscript.',
    confirm: 'Remove access',
  };
}

/**
 * Everyone and every link with access to the manuscript, as its author sees them: access
 * requests to approve or refuse, invited people (the e-mail only where the server gives it:
 * on the author's own invites), share links with their use, and readers who came through a
 * link. Each can be removed ("Access removed").
 */
export function InviteList({
  manuscriptId,
  invites,
  onChanged,
  onRemoved,
}: {
  manuscriptId: number;
  invites: Invite[];
  onChanged: (invite: Invite) => void;
  onRemoved: (inviteId: number) => void;
}) {
  const flash = useFlash();
  const toast = useToast();
  const [removing, setRemoving] = useState<Invite | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const requests = invites.filter(
    (invite) => invite.kind === 'request' && invite.status === 'requested',
  );
  const people = invites.filter(
    (invite) =>
      invite.kind === 'user' ||
      invite.kind === 'email' ||
      invite.kind === 'redemption' ||
      (invite.kind === 'request' && invite.status !== 'requested'),
  );
  const links = invites.filter((invite) => invite.kind === 'link');

  const handleDecision = async (invite: Invite, decision: 'approve' | 'refuse') => {
    setBusyId(invite.id);
    try {
      onChanged(await decideAccessRequest(manuscriptId, invite.id, decision));
      toast(decision === 'approve' ? MESSAGES.accessUpdated : 'Request refused.');
    } catch (error) {
      flash(errorMessage(error, MESSAGES.serverCommunication));
    } finally {
      setBusyId(null);
    }
  };

  const handleRemove = async () => {
    if (!removing) return;
    const invite = removing;
    setBusyId(invite.id);
    try {
      await deleteInvite(invite.id);
      onRemoved(invite.id);
      toast(MESSAGES.accessRemoved);
      setRemoving(null);
    } catch (error) {
      flash(errorMessage(error, MESSAGES.serverCommunication));
      setRemoving(null);
    } finally {
      setBusyId(null);
    }
  };

  const removeButton = (invite: Invite, label: string) => (
    <button
      type="button"
      className="btn btn-ghost min-h-8 px-3 text-danger hover:text-danger"
      onClick={() => setRemoving(invite)}
      disabled={busyId === invite.id}
      aria-label={label}
    >
      Remove
    </button>
  );

  const person = (invite: Invite) => {
    const primary = inviteePrimary(invite) ?? 'Someone';
    return (
      <div className="flex min-w-[13rem] flex-1 items-center gap-3">
        <Avatar name={primary} picture={null} size="sm" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium">{primary}</p>
          <p className="truncate text-xs text-muted">
            {[
              inviteeSecondary(invite),
              invite.kind === 'redemption' ? 'came through a link' : null,
              invite.kind === 'request' ? 'asked for access' : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        </div>
      </div>
    );
  };

  if (invites.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-line px-4 py-5 text-center text-sm text-muted">
        Nobody has been invited yet, and there are no links.
      </p>
    );
  }

  return (
    <div>
      {requests.length ? (
        <Group title={`Access requests · ${requests.length}`}>
          {requests.map((invite) => (
            <Row key={invite.id} testId="request">
              {person(invite)}
              <span className="ml-auto flex gap-2">
                <button
                  type="button"
                  className="btn btn-primary min-h-8 px-4"
                  disabled={busyId === invite.id}
                  onClick={() => void handleDecision(invite, 'approve')}
                  aria-label={`Approve ${inviteePrimary(invite) ?? 'request'}`}
                >
                  Approve
                </button>
                <button
                  type="button"
                  className="btn btn-secondary min-h-8 px-4"
                  disabled={busyId === invite.id}
                  onClick={() => void handleDecision(invite, 'refuse')}
                  aria-label={`Refuse ${inviteePrimary(invite) ?? 'request'}`}
                >
                  Refuse
                </button>
              </span>
            </Row>
          ))}
        </Group>
      ) : null}

      {people.length ? (
        <Group title={`People · ${people.length}`}>
          {people.map((invite) => (
            <Row key={invite.id} testId="person">
              {person(invite)}
              <span className="ml-auto flex items-center gap-2">
                <Badge tone="off">{visibilityLabel(invite.invite_type)}</Badge>
                <Badge tone={statusTone(invite.status)}>{STATUS_LABELS[invite.status]}</Badge>
                {removeButton(invite, `Remove ${inviteePrimary(invite) ?? 'this invite'}`)}
              </span>
            </Row>
          ))}
        </Group>
      ) : null}

      {links.length ? (
        <Group title={`Links · ${links.length}`}>
          {links.map((invite) => {
            const used = invite.one_time && invite.redeemed_at !== null;
            return (
              <Row key={invite.id} testId="link">
                <div className="min-w-[13rem] flex-1">
                  <p
                    className={`truncate font-mono text-xs ${used ? 'text-muted line-through' : ''}`}
                  >
                    {invite.link ?? invite.invite_code?.code ?? 'Link'}
                  </p>
                  <p className="text-xs text-muted">
                    {invite.one_time ? 'One-time' : 'Reusable'} · made{' '}
                    {formatShortDate(invite.created)}
                  </p>
                </div>
                <span className="ml-auto flex items-center gap-2">
                  <Badge tone="off">{visibilityLabel(invite.invite_type)}</Badge>
                  {invite.one_time ? (
                    <Badge tone={used ? 'off' : 'wait'}>{used ? 'Used' : 'Unused'}</Badge>
                  ) : null}
                  {invite.link && !used ? <CopyLinkButton link={invite.link} /> : null}
                  {removeButton(invite, 'Delete this link')}
                </span>
              </Row>
            );
          })}
        </Group>
      ) : null}

      {removing ? (
        <ConfirmDialog
          title={removalWording(removing).title}
          confirmLabel={removalWording(removing).confirm}
          tone="danger"
          busy={busyId === removing.id}
          onConfirm={() => void handleRemove()}
          onCancel={() => setRemoving(null)}
        >
          {removalWording(removing).body}
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
