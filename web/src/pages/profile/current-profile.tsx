import { useEffect, useState } from 'react';
import {
  currentUser as currentUserSchema,
  genreCategory,
  inviteCode,
  NOTIFICATION_KEYS,
  notificationPreferences,
  type CurrentUser,
  type GenreCategory,
  type InviteCode,
  type NotificationPreferences,
} from '@margins/common';
import { z } from 'zod';
import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { SubscriptionPanel } from '../../components/payments/subscription-panel.tsx';
import { TabList } from '../../components/tab-list.tsx';
import { usePageConfig } from '../../page-config.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { NotFoundPage } from '../not-found.tsx';
import { GenresTab } from './genres-tab.tsx';
import { InvitesTab } from './invites-tab.tsx';
import { MatureSection } from './mature-section.tsx';
import { NotificationsTab } from './notifications-tab.tsx';
import { ProfileForm } from './profile-form.tsx';

const TABS = [
  { id: 'profile', label: 'Profile' },
  { id: 'genres', label: 'Genres' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'invites', label: 'Invite codes' },
  { id: 'subscription', label: 'Subscription' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** Hash or data.tab spellings that open each tab. */
const TAB_ALIASES: Record<string, TabId> = {
  profile: 'profile',
  genres: 'genres',
  notifications: 'notifications',
  notification: 'notifications',
  preferences: 'notifications',
  'notification-preferences': 'notifications',
  notification_preferences: 'notifications',
  invites: 'invites',
  invite: 'invites',
  'invite-codes': 'invites',
  subscription: 'subscription',
  subscriptions: 'subscription',
};

function tabFrom(value: unknown): TabId | null {
  if (typeof value !== 'string') return null;
  return TAB_ALIASES[value.replace(/^#/, '').toLowerCase()] ?? null;
}

interface Bundle {
  user: CurrentUser;
  categories: GenreCategory[];
  selectedGenreIds: number[];
  preferences: NotificationPreferences;
  inviteCodes: InviteCode[];
  invitesRemaining: number;
}

const emptyPreferences = Object.fromEntries(
  NOTIFICATION_KEYS.map((key) => [key, []]),
) as unknown as NotificationPreferences;

/** Reads the ProfileBundle of the page data, part by part, so one odd part spoils nothing. */
export function readBundle(
  data: Record<string, unknown>,
  fallbackUser: CurrentUser | null,
): Bundle | null {
  const user = currentUserSchema.safeParse(data.user);
  const resolvedUser = user.success ? user.data : fallbackUser;
  if (!resolvedUser) return null;
  const categories = z.array(genreCategory).safeParse(data.categories);
  const selected = z.array(z.number()).safeParse(data.selected_genre_ids);
  const preferences = notificationPreferences.partial().safeParse(data.notification_preferences);
  const codes = z.array(inviteCode).safeParse(data.invite_codes);
  const remaining = z.number().safeParse(data.invites_remaining);
  return {
    user: resolvedUser,
    categories: categories.success ? categories.data : [],
    selectedGenreIds: selected.success ? selected.data : [],
    preferences: { ...emptyPreferences, ...(preferences.success ? preferences.data : {}) },
    inviteCodes: codes.success ? codes.data : [],
    invitesRemaining: remaining.success ? remaining.data : 0,
  };
}

/**
 * The current user's profile (/profile/, /profile/genres, /profile/notification/preferences):
 * tabs Profile, Genres, Notifications and Invite codes. A URL hash opens a tab; data.tab
 * picks the first one.
 */
export function CurrentProfilePage() {
  const { data, currentUser, invitesEnabled } = usePageConfig();
  const bundle = readBundle(data, currentUser);
  const [tab, setTab] = useState<TabId>(
    () => tabFrom(window.location.hash) ?? tabFrom(data.tab) ?? 'profile',
  );
  useDocumentTitle('Your profile');

  useEffect(() => {
    const handleHashChange = () => {
      const fromHash = tabFrom(window.location.hash);
      if (fromHash) setTab(fromHash);
    };
    window.addEventListener('hashchange', handleHashChange);
    return () => window.removeEventListener('hashchange', handleHashChange);
  }, []);

  if (!bundle) return <NotFoundPage />;

  const select = (next: TabId) => {
    setTab(next);
    window.history.replaceState(window.history.state, '', `#${next}`);
  };

  return (
    <PageContainer>
      <PageHeading
        eyebrow="Your account"
        title="Profile & settings"
        lead="How other writers and readers see you, what you like to read, and which messages reach your inbox."
      />
      <TabList
        tabs={TABS}
        selected={tab}
        onSelect={select}
        label="Profile sections"
        className="-mx-4 mb-6 flex gap-1 overflow-x-auto border-b border-line px-4 sm:mx-0 sm:px-0"
        tabClassName="sm:px-4"
      />

      <section
        role="tabpanel"
        id="panel-profile"
        aria-labelledby="tab-profile"
        hidden={tab !== 'profile'}
        className="space-y-8"
      >
        <div className="card p-5 sm:p-8">
          <ProfileForm user={bundle.user} />
        </div>
        <MatureSection certified={bundle.user.certified_18} showMature={bundle.user.show_mature} />
      </section>
      <section
        role="tabpanel"
        id="panel-genres"
        aria-labelledby="tab-genres"
        hidden={tab !== 'genres'}
        className="card p-5 sm:p-8"
      >
        <GenresTab categories={bundle.categories} selectedGenreIds={bundle.selectedGenreIds} />
      </section>
      <section
        role="tabpanel"
        id="panel-notifications"
        aria-labelledby="tab-notifications"
        hidden={tab !== 'notifications'}
        className="card p-5 sm:p-8"
      >
        <NotificationsTab initial={bundle.preferences} />
      </section>
      <section
        role="tabpanel"
        id="panel-invites"
        aria-labelledby="tab-invites"
        hidden={tab !== 'invites'}
        className="card p-5 sm:p-8"
      >
        <InvitesTab
          initialCodes={bundle.inviteCodes}
          initialRemaining={bundle.invitesRemaining}
          invitesEnabled={invitesEnabled}
        />
      </section>
      <section
        role="tabpanel"
        id="panel-subscription"
        aria-labelledby="tab-subscription"
        hidden={tab !== 'subscription'}
        className="card p-5 sm:p-8"
      >
        <h2 className="mb-4 text-xl font-semibold">Current subscription</h2>
        {tab === 'subscription' ? <SubscriptionPanel /> : null}
      </section>
    </PageContainer>
  );
}
