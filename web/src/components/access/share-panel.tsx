import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MESSAGES,
  type Invite,
  type InviteType,
  type Manuscript,
  type ManuscriptInvitesResponse,
} from '@margins/common';
import {
  accessKeys,
  createShareLink,
  fetchManuscriptInvites,
  linkErrorMessage,
} from '../../api/access.ts';
import { errorMessage } from '../../api/client.ts';
import { ConfirmDialog } from '../dialog.tsx';
import { useFlash, useToast } from '../feedback/feedback.tsx';
import { FormAlert } from '../form/fields.tsx';
import {
  opensUp,
  opensUpWording,
  VISIBILITY_OPTIONS,
  visibilityLabel,
} from '../manuscripts/visibility.ts';
import { InkSpinner } from '../manuscripts/upload-progress.tsx';
import { copyTextOrThrow as copyText } from '../../lib/copy-text.ts';
import { InviteList } from './invite-list.tsx';
import { UserInviteForm } from './user-invite-form.tsx';

/** What each invite type means for a share link, in plain words. */
const LINK_HELP: Record<InviteType, string> = {
  private:
    'Only the people you invite. A link lets in whoever opens it — or just the first person, if it is one-time.',
  restricted: 'People with the link ask you for access; you approve or refuse each one.',
  logged_in: 'Anyone logged in to Margins can read it, with or without the link.',
  public: 'Anyone can read it — no account needed — and it can be found on Discover.',
};

function PanelSection({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="border-t border-line pt-6 first:border-t-0 first:pt-0">
      <h3 className="text-lg font-semibold">{title}</h3>
      {lead ? <p className="mt-1 text-sm text-muted">{lead}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The newest standing (reusable) link of the manuscript, if any. */
function standingLink(invites: Invite[]): Invite | null {
  return invites.find((invite) => invite.kind === 'link' && !invite.one_time) ?? null;
}

/** The link box: the address, selectable, and "Copy" ("Copied!"). */
function LinkBox({ link, note }: { link: string; note?: string }) {
  const id = useId();
  const toast = useToast();
  const flash = useFlash();
  const [copied, setCopied] = useState(false);

  const handleCopy = async () => {
    try {
      await copyText(link);
      setCopied(true);
      toast(MESSAGES.copied);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      flash('Copying is blocked here. Select the link and copy it yourself.');
    }
  };

  return (
    <div
      className="rounded-xl border border-accent/30 bg-accent-soft/50 p-3 sm:p-4"
      data-share-link
    >
      <label htmlFor={`${id}-link`} className="field-label">
        Share link
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={`${id}-link`}
          readOnly
          value={link}
          className="field-input min-w-0 flex-1 font-mono text-xs sm:text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button
          type="button"
          className="btn btn-secondary shrink-0"
          onClick={() => void handleCopy()}
        >
          {copied ? MESSAGES.copied : 'Copy'}
        </button>
      </div>
      {note ? <p className="mt-2 text-xs text-muted">{note}</p> : null}
    </div>
  );
}

/**
 * The Share tab (dashboard edit modal, and the reader for the author): who may read (the
 * invite type, with a confirmation when it lets more people in), a share link (one-time for
 * private manuscripts), inviting someone by handle or e-mail, and everyone with access.
 */
export function SharePanel({
  manuscript,
  onVisibilityChanged,
}: {
  manuscript: Manuscript;
  onVisibilityChanged?: (visibility: InviteType) => void;
}) {
  const id = useId();
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = accessKeys.manuscriptInvites(manuscript.id);
  const query = useQuery({ queryKey: key, queryFn: () => fetchManuscriptInvites(manuscript.id) });
  const current: InviteType = query.data?.visibility ?? manuscript.visibility;
  const invites = query.data?.invites ?? [];

  const [chosen, setChosen] = useState<InviteType | null>(null);
  const [oneTime, setOneTime] = useState(false);
  const [pending, setPending] = useState<InviteType | null>(null);
  const [busy, setBusy] = useState(false);
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const [made, setMade] = useState<Invite | null>(null);
  const selected = chosen ?? current;

  // The manuscript form changed the visibility: the server's list is the truth again.
  const seenVisibility = useRef(manuscript.visibility);
  useEffect(() => {
    if (seenVisibility.current === manuscript.visibility) return;
    seenVisibility.current = manuscript.visibility;
    void queryClient.invalidateQueries({
      queryKey: accessKeys.manuscriptInvites(manuscript.id),
    });
  }, [manuscript.visibility, manuscript.id, queryClient]);

  const updateCache = (change: (data: ManuscriptInvitesResponse) => ManuscriptInvitesResponse) => {
    if (!queryClient.getQueryData(key)) {
      // Still loading: the list comes from the server with the change in it.
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    queryClient.setQueryData<ManuscriptInvitesResponse>(key, (data) =>
      data ? change(data) : data,
    );
  };
  const putInvite = (invite: Invite) =>
    updateCache((data) => ({
      ...data,
      invites: data.invites.some((item) => item.id === invite.id)
        ? data.invites.map((item) => (item.id === invite.id ? invite : item))
        : [invite, ...data.invites],
    }));

  const choose = (next: InviteType) => {
    setLinkProblem(null);
    if (next === selected) return;
    // SPEC §4: moving to a less restricted type asks first (the document's permission changes).
    if (opensUp(current, next)) {
      setPending(next);
      return;
    }
    setChosen(next);
    if (next !== 'private') setOneTime(false);
  };

  const handleCreate = async () => {
    setBusy(true);
    setLinkProblem(null);
    try {
      const useInvite = selected === 'private' && oneTime;
      const standing = standingLink(invites);
      const invite = await createShareLink(manuscript.id, {
        access: selected,
        useInvite,
        ...(!useInvite && standing?.invite_code ? { code: standing.invite_code.code } : {}),
      });
      setMade(invite);
      putInvite(invite);
      updateCache((data) => ({ ...data, visibility: selected }));
      setChosen(null);
      if (selected !== current) onVisibilityChanged?.(selected);
      toast(MESSAGES.accessUpdated);
    } catch (error) {
      setLinkProblem(linkErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const shownLink = made?.link ?? (current === selected ? standingLink(invites)?.link : null);
  const oneTimeEnabled = selected === 'private';
  const wording = pending ? opensUpWording(pending) : null;

  return (
    <div className="space-y-8" data-share-panel>
      <PanelSection
        title="Who can read it"
        lead={
          <>
            Now: <strong className="text-ink">{visibilityLabel(current)}</strong>. Pick who may
            read, then create the link to apply it.
          </>
        }
      >
        <fieldset>
          <legend className="sr-only">Invite type</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {VISIBILITY_OPTIONS.map((option) => {
              const checked = selected === option.value;
              return (
                <label
                  key={option.value}
                  className={`flex cursor-pointer items-start gap-3 rounded-xl border p-3 transition-colors ${
                    checked
                      ? 'border-accent bg-accent-soft/60'
                      : 'border-line bg-surface hover:border-accent/50'
                  }`}
                >
                  <input
                    type="radio"
                    name={`${id}-access`}
                    value={option.value}
                    checked={checked}
                    onChange={() => choose(option.value)}
                    className="mt-1 size-4 shrink-0 accent-[var(--accent)]"
                    aria-describedby={`${id}-${option.value}-help`}
                  />
                  <span>
                    <span className="block text-sm font-semibold">
                      {option.label}
                      {option.value === current ? (
                        <span className="ml-2 text-xs font-medium text-muted">(now)</span>
                      ) : null}
                    </span>
                    <span id={`${id}-${option.value}-help`} className="block text-xs text-muted">
                      {LINK_HELP[option.value]}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>

        <label
          className={`mt-4 flex items-start gap-3 ${oneTimeEnabled ? 'cursor-pointer' : 'cursor-not-allowed opacity-60'}`}
        >
          <input
            type="checkbox"
            name="useInvite"
            className="mt-0.5 size-4 accent-[var(--accent)]"
            checked={oneTimeEnabled && oneTime}
            disabled={!oneTimeEnabled}
            onChange={(event) => setOneTime(event.target.checked)}
          />
          <span>
            <span className="text-sm font-medium">One-time use</span>
            <span className="block text-xs text-muted">
              {oneTimeEnabled
                ? 'A new link each time, that lets in only the first person who opens it.'
                : 'Only for private manuscripts.'}
            </span>
          </span>
        </label>

        <div className="mt-5 flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || query.isPending}
            onClick={() => void handleCreate()}
          >
            {busy
              ? 'Working…'
              : selected === 'private' && oneTime
                ? 'Create one-time link'
                : 'Create link'}
          </button>
          {chosen && chosen !== current ? (
            <span className="text-xs text-muted">
              Not applied yet: it becomes {visibilityLabel(chosen)} when you create the link.
            </span>
          ) : null}
        </div>
        {linkProblem ? (
          <p role="alert" className="mt-3 text-sm text-danger">
            {linkProblem}
          </p>
        ) : null}
        {shownLink ? (
          <div className="mt-5">
            <LinkBox
              link={shownLink}
              note={
                made?.one_time
                  ? 'One-time: it works for the first person who opens it.'
                  : 'Anyone you give this link to follows the rule above.'
              }
            />
          </div>
        ) : null}
      </PanelSection>

      <PanelSection
        title="Invite someone"
        lead="By their Margins handle, or by e-mail. They find the invite on their dashboard."
      >
        <UserInviteForm manuscriptId={manuscript.id} onInvited={putInvite} />
      </PanelSection>

      <PanelSection title="People and links">
        {query.isPending ? (
          <p className="flex items-center gap-2 text-sm text-muted" role="status">
            <InkSpinner />
            Loading…
          </p>
        ) : query.isError ? (
          <FormAlert>
            {errorMessage(query.error)}{' '}
            <button type="button" className="underline" onClick={() => void query.refetch()}>
              Try again
            </button>
          </FormAlert>
        ) : (
          <InviteList
            manuscriptId={manuscript.id}
            invites={invites}
            onChanged={putInvite}
            onRemoved={(inviteId) => {
              updateCache((data) => ({
                ...data,
                invites: data.invites.filter((item) => item.id !== inviteId),
              }));
              if (made?.id === inviteId) setMade(null);
              // A link takes its redemptions along: the list comes again from the server.
              void queryClient.invalidateQueries({ queryKey: key });
            }}
          />
        )}
      </PanelSection>

      {pending && wording ? (
        <ConfirmDialog
          title={wording.title}
          confirmLabel={wording.confirm}
          onConfirm={() => {
            setChosen(pending);
            setOneTime(false);
            setPending(null);
          }}
          onCancel={() => setPending(null)}
        >
          {wording.explanation} The manuscript’s permission changes when you create the link.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
