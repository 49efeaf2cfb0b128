import { useState } from 'react';
import {
  MESSAGES,
  NOTIFICATION_KEYS,
  type NotificationKey,
  type NotificationPreferences,
} from '@margins/common';
import { api } from '../../api/client.ts';
import { useFlash } from '../../components/feedback/feedback.tsx';

const LABELS: Record<NotificationKey, { title: string; description: string }> = {
  invited_to_document: {
    title: 'Invitations to read',
    description: 'An author invites you to read their manuscript.',
  },
  received_approval: {
    title: 'You were approved',
    description: 'An author approves you as a reader of their manuscript.',
  },
  reader_needs_approval: {
    title: 'Readers waiting for you',
    description: 'A reader answered your questionnaire and waits for your approval.',
  },
  reminders: {
    title: 'Gentle reminders',
    description: 'Unfinished reads and invites you have not answered yet.',
  },
  comment_replies: {
    title: 'Replies to your comments',
    description: 'Someone replies to a comment you wrote (at most one mail an hour).',
  },
};

/**
 * Notification preferences: an e-mail checkbox per key. Every change POSTs the whole map
 * to /profile/notification/preferences; a failure reverts and flashes.
 */
export function NotificationsTab({ initial }: { initial: NotificationPreferences }) {
  const flash = useFlash();
  const [preferences, setPreferences] = useState(initial);

  const handleToggle = async (key: NotificationKey, email: boolean) => {
    const previous = preferences;
    const next: NotificationPreferences = { ...preferences, [key]: email ? ['email'] : [] };
    setPreferences(next);
    try {
      await api.post('/profile/notification/preferences', next);
    } catch {
      setPreferences(previous);
      flash(MESSAGES.unableToUpdatePreference);
    }
  };

  return (
    <div>
      <p className="text-muted">Choose what we e-mail you about. Changes save as you go.</p>
      <ul className="mt-6 divide-y divide-line rounded-xl border border-line">
        {NOTIFICATION_KEYS.map((key) => {
          const id = `notify-${key}-email`;
          return (
            <li key={key} className="flex items-center gap-4 px-4 py-4 sm:px-5">
              <div className="flex-1">
                <label htmlFor={id} className="font-medium">
                  {LABELS[key].title}
                </label>
                <p className="mt-0.5 text-sm text-muted">{LABELS[key].description}</p>
              </div>
              <label className="flex cursor-pointer items-center gap-2 text-sm text-muted">
                <input
                  id={id}
                  type="checkbox"
                  name={key}
                  checked={preferences[key]?.includes('email') ?? false}
                  onChange={(event) => void handleToggle(key, event.target.checked)}
                  className="size-4 accent-(--accent)"
                />
                E-mail
              </label>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
