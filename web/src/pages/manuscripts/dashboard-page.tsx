import { useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DASHBOARD_CONTROLS_AFTER,
  MESSAGES,
  UPLOAD_POLL_MS,
  type Manuscript,
} from '@margins/common';
import {
  fetchMyManuscripts,
  manuscriptKeys,
  readCatalogue,
  readManuscripts,
} from '../../api/manuscripts.ts';
import {
  PendingInvitesList,
  ReadsList,
  useDashboardAccess,
} from '../../components/access/dashboard-access.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { useToast } from '../../components/feedback/feedback.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { ArchiveButton } from '../../components/manuscripts/archive-button.tsx';
import { ManuscriptCard } from '../../components/manuscripts/manuscript-card.tsx';
import {
  arrangeManuscripts,
  DEFAULT_ARRANGEMENT,
  ManuscriptListControls,
} from '../../components/manuscripts/manuscript-list-controls.tsx';
import { UploadForm } from '../../components/manuscripts/upload-form.tsx';
import { TipsReceived } from '../../components/payments/tips-received.tsx';
import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';
import { EditManuscriptModal } from './edit-manuscript-modal.tsx';

/** While a card is inking, the list is fetched again this often until it is done. */
const INKING_REFETCH_MS = UPLOAD_POLL_MS * 2;

function PlusIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
      <path d="M9.25 4h1.5v5.25H16v1.5h-5.25V16h-1.5v-5.25H4v-1.5h5.25V4Z" />
    </svg>
  );
}

function Section({
  id,
  title,
  count,
  action,
  children,
}: {
  id: string;
  title: string;
  count?: number;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className="mt-14 first:mt-0" id={id}>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3 border-b border-line pb-3">
        <h2 id={`${id}-heading`} className="text-2xl font-semibold">
          {title}
          {count ? (
            <span className="ml-2 align-middle font-sans text-sm font-medium text-muted">
              {count}
            </span>
          ) : null}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-line bg-surface/50 px-6 py-10 text-center">
      <p className="font-serif text-xl font-semibold">{title}</p>
      <div className="mx-auto mt-2 max-w-md font-serif text-muted">{children}</div>
    </div>
  );
}

const GRID = 'grid gap-x-6 gap-y-9 pt-2 sm:grid-cols-2 lg:grid-cols-3';

/**
 * The dashboard (/dashboard): my manuscripts as note cards with edit and delete, the
 * new-manuscript upload modal, and my reads and pending invites.
 */
export function DashboardPage() {
  const { data, currentUser } = usePageConfig();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const categories = readCatalogue(data.categories);
  const seeded = Array.isArray(data.manuscripts) ? readManuscripts(data.manuscripts) : undefined;
  const access = useDashboardAccess(data.bookmarks, data.invites, currentUser !== null);
  useDocumentTitle('Dashboard');

  const list = useQuery({
    queryKey: manuscriptKeys.mine,
    queryFn: fetchMyManuscripts,
    initialData: seeded,
    enabled: currentUser !== null,
    refetchInterval: (query) =>
      query.state.data?.some((manuscript) => manuscript.inking) ? INKING_REFETCH_MS : false,
  });
  const manuscripts = list.data ?? [];
  const editing = manuscripts.find((manuscript) => manuscript.id === editingId) ?? null;
  // Sort and filter once the list is longer than a screenful; below that, as it comes.
  const [arrangement, setArrangement] = useState(DEFAULT_ARRANGEMENT);
  const arranging = manuscripts.length > DASHBOARD_CONTROLS_AFTER;
  const shown = arranging ? arrangeManuscripts(manuscripts, arrangement) : manuscripts;

  const putInList = (manuscript: Manuscript) =>
    queryClient.setQueryData<Manuscript[]>(manuscriptKeys.mine, (current = []) =>
      current.some((item) => item.id === manuscript.id)
        ? current.map((item) => (item.id === manuscript.id ? manuscript : item))
        : [manuscript, ...current],
    );
  const removeFromList = (manuscriptId: number) =>
    queryClient.setQueryData<Manuscript[]>(manuscriptKeys.mine, (current = []) =>
      current.filter((item) => item.id !== manuscriptId),
    );
  const refresh = () => void queryClient.invalidateQueries({ queryKey: manuscriptKeys.mine });

  if (!currentUser) {
    return (
      <PageContainer width="narrow">
        <EmptyState title="Log in to see your dashboard">
          <AppLink to="/auth/login?next=/dashboard" className="btn btn-primary mt-4">
            Log in
          </AppLink>
        </EmptyState>
      </PageContainer>
    );
  }

  const newButton = (
    <button type="button" className="btn btn-primary" onClick={() => setUploading(true)}>
      <PlusIcon />
      New manuscript
    </button>
  );

  return (
    <PageContainer width="wide">
      <PageHeading
        eyebrow="Your desk"
        title={`Welcome back, ${currentUser.display_name}`}
        lead="Your manuscripts, what you are reading, and the invitations waiting for you."
      />

      <Section
        id="my-manuscripts"
        title="My manuscripts"
        count={manuscripts.length}
        action={newButton}
      >
        {list.isError && manuscripts.length === 0 ? (
          <p role="alert" className="text-danger">
            We could not load your manuscripts.{' '}
            <button type="button" className="underline" onClick={refresh}>
              Try again
            </button>
          </p>
        ) : manuscripts.length === 0 ? (
          <EmptyState title="Your desk is clear">
            <p>
              Upload a draft — Word, LibreOffice, RTF, Markdown, HTML or plain text — and it becomes
              a clean reading page you can share with your first readers.
            </p>
            <button
              type="button"
              className="btn btn-primary mt-5"
              onClick={() => setUploading(true)}
            >
              <PlusIcon />
              Upload your first manuscript
            </button>
          </EmptyState>
        ) : (
          <>
            {arranging ? (
              <ManuscriptListControls
                arrangement={arrangement}
                onChange={setArrangement}
                shown={shown.length}
                total={manuscripts.length}
              />
            ) : null}
            <ul className={GRID} aria-label="My manuscripts">
              {shown.map((manuscript, index) => (
                <li key={manuscript.id}>
                  <ManuscriptCard
                    manuscript={manuscript}
                    index={index}
                    showAuthor={false}
                    actions={
                      manuscript.inking ? null : (
                        <>
                          <button
                            type="button"
                            className="btn btn-ghost min-h-9 px-3"
                            onClick={() => setEditingId(manuscript.id)}
                            aria-label={`Edit ${manuscript.title}`}
                          >
                            <svg
                              aria-hidden="true"
                              viewBox="0 0 20 20"
                              className="size-4 fill-current"
                            >
                              <path d="m13.6 2.9 3.5 3.5-9.6 9.6H4v-3.5l9.6-9.6Zm0 2.1-8.1 8.1v1.4h1.4l8.1-8.1-1.4-1.4Z" />
                            </svg>
                            Edit
                          </button>
                          <ArchiveButton
                            manuscript={manuscript}
                            className="btn btn-ghost min-h-9 px-3"
                            onArchived={() => {
                              removeFromList(manuscript.id);
                              toast('Manuscript deleted.');
                              refresh();
                            }}
                          />
                        </>
                      )
                    }
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </Section>

      <Section id="reads" title="Reads" count={access.reads.length}>
        {access.reads.length ? (
          <ReadsList reads={access.reads} onRemoved={access.removeRead} />
        ) : (
          <EmptyState title="Nothing on your nightstand yet">
            <p>
              Manuscripts you bookmark, or whose invitation you accept, appear here so you can pick
              up where you left off. <a href="/discover/">Discover something to read</a>.
            </p>
          </EmptyState>
        )}
      </Section>

      <Section id="invites" title="Pending invites" count={access.invites.length}>
        {access.invites.length ? (
          <PendingInvitesList
            invites={access.invites}
            onAccepted={(invite, bookmark) => {
              access.removeInvite(invite.id);
              access.addRead(bookmark);
            }}
            onGone={access.removeInvite}
          />
        ) : (
          <EmptyState title="No invitations waiting">
            <p>When an author invites you to read their manuscript, it waits for you here.</p>
          </EmptyState>
        )}
      </Section>

      <TipsReceived />

      {uploading ? (
        <Dialog
          title="New manuscript"
          description="One file at a time. It stays private until you share it."
          onClose={() => setUploading(false)}
          testId="upload-dialog"
        >
          <UploadForm
            doneText="Ready! Your manuscript is on your desk."
            onUploaded={({ manuscript }) => putInList(manuscript)}
            onDone={(manuscript) => {
              putInList(manuscript);
              refresh();
              setUploading(false);
              toast(MESSAGES.manuscriptSaved);
            }}
          />
        </Dialog>
      ) : null}

      {editing ? (
        <EditManuscriptModal
          manuscript={editing}
          categories={categories}
          onSaved={putInList}
          onDraftUploaded={({ manuscript }) => putInList(manuscript)}
          onDraftDone={(manuscript) => {
            putInList(manuscript);
            refresh();
          }}
          onClose={() => setEditingId(null)}
        />
      ) : null}
    </PageContainer>
  );
}
