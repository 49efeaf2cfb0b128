// The author's Insights tab (issue 15). Loaded on its own (it carries Chart.js): see insights-tab.tsx.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  REMINDER_DAYS_DEFAULT,
  REMINDER_DAYS_MAX,
  STOP_REASON_LABELS,
  type InsightsResponse,
} from '@margins/common';
import { fetchInsights, insightsKeys, saveReminderDays } from '../../api/insights.ts';
import { errorMessage } from '../../api/client.ts';
import { formatDate } from '../../lib/dates.ts';
import { FormAlert } from '../form/fields.tsx';
import { ChapterBars, DropOffChart } from './insights-charts.tsx';
import { ReaderTable } from './reader-table.tsx';

/** Where readers stop and why, who is stuck and who finished (owner only). */
export default function InsightsPanel({ manuscriptId }: { manuscriptId: number }) {
  const query = useQuery({
    queryKey: insightsKeys.insights(manuscriptId),
    queryFn: () => fetchInsights(manuscriptId),
  });
  if (query.isPending) return <p className="text-sm text-muted">Loading insights…</p>;
  if (query.isError) return <FormAlert>{errorMessage(query.error)}</FormAlert>;
  return <InsightsView manuscriptId={manuscriptId} insights={query.data} />;
}

function InsightsView({
  manuscriptId,
  insights,
}: {
  manuscriptId: number;
  insights: InsightsResponse;
}) {
  const { chapters, readers, started } = insights;
  const finished = readers.filter((reader) => reader.finished).length;
  const labels = chapters.map((chapter, index) => `${index + 1}. ${chapter.title}`);
  const stops = readers.filter((reader) => reader.stopped);

  return (
    <div className="space-y-8" data-testid="insights-panel">
      <dl className="grid grid-cols-3 gap-3 text-center">
        <Stat label="Readers" value={readers.length} />
        <Stat label="Started" value={started} />
        <Stat label="Finished" value={finished} />
      </dl>

      {readers.length === 0 ? (
        <p className="rounded-lg border border-line bg-sunken px-4 py-3 text-sm">
          No readers yet. Once readers open the manuscript, you will see here where they stop, how
          long each chapter takes them, and what they say.
        </p>
      ) : null}

      {started > 0 ? (
        <>
          <section aria-labelledby="insights-dropoff">
            <h3 id="insights-dropoff" className="font-serif text-lg font-semibold">
              Where readers stop
            </h3>
            <p className="mb-2 text-sm text-muted">
              Readers who started, and how many reached each chapter.
            </p>
            <DropOffChart
              labels={['Started', ...labels]}
              values={[started, ...chapters.map((chapter) => chapter.reached)]}
              summary={`Of ${started} readers who started, ${chapters
                .map((chapter, index) => `${chapter.reached} reached chapter ${index + 1}`)
                .join(', ')}.`}
              testId="insights-dropoff"
            />
            {started < 3 ? (
              <p className="mt-2 text-xs text-muted">
                With {started === 1 ? 'one reader' : 'two readers'} this shows their path, not yet a
                pattern.
              </p>
            ) : null}
          </section>

          <div className="grid gap-8 md:grid-cols-2">
            <section aria-labelledby="insights-time">
              <h3 id="insights-time" className="font-serif text-lg font-semibold">
                Time per chapter
              </h3>
              <p className="mb-2 text-sm text-muted">Median minutes per 1,000 words.</p>
              <ChapterBars
                labels={labels}
                values={chapters.map((chapter) => chapter.minutes_per_1000)}
                yTitle="min / 1,000 words"
                summary={chapters
                  .map(
                    (chapter, index) =>
                      `Chapter ${index + 1}: ${chapter.minutes_per_1000 ?? 'no'} minutes per 1,000 words`,
                  )
                  .join('; ')}
                testId="insights-time"
              />
            </section>
            <section aria-labelledby="insights-engagement">
              <h3 id="insights-engagement" className="font-serif text-lg font-semibold">
                Engagement per chapter
              </h3>
              <p className="mb-2 text-sm text-muted">Highlights and comments per 1,000 words.</p>
              <ChapterBars
                labels={labels}
                values={chapters.map((chapter) => chapter.engagement_per_1000)}
                yTitle="per 1,000 words"
                summary={chapters
                  .map(
                    (chapter, index) =>
                      `Chapter ${index + 1}: ${chapter.highlights} highlights, ${chapter.comments} comments`,
                  )
                  .join('; ')}
                testId="insights-engagement"
              />
            </section>
          </div>
        </>
      ) : null}

      {stops.length > 0 ? (
        <section aria-labelledby="insights-exits">
          <h3 id="insights-exits" className="font-serif text-lg font-semibold">
            Why readers stopped
          </h3>
          <ul className="mt-2 space-y-2 text-sm" data-testid="insights-exits">
            {stops.map((reader) => (
              <li key={reader.user_id} className="rounded-lg border border-line px-3 py-2">
                <span className="font-semibold">{STOP_REASON_LABELS[reader.stopped!.reason]}</span>
                {' · '}
                {reader.stopped!.chapter === null
                  ? 'a chapter no longer in the draft'
                  : chapters[reader.stopped!.chapter]?.title}
                {' · '}
                <span className="text-muted">
                  {reader.display_name}, {formatDate(reader.stopped!.at)}
                </span>
                {reader.stopped!.text ? (
                  <p className="mt-1 font-serif italic">“{reader.stopped!.text}”</p>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {readers.length > 0 ? (
        <section aria-labelledby="insights-table">
          <h3 id="insights-table" className="mb-2 font-serif text-lg font-semibold">
            Readers
          </h3>
          <ReaderTable manuscriptId={manuscriptId} readers={readers} chapters={chapters} />
        </section>
      ) : null}

      <ReminderSetting manuscriptId={manuscriptId} days={insights.reminder_days} />
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-line px-3 py-2">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-serif text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** The author's reminder setting: idle days before a polite reminder, or off. */
function ReminderSetting({ manuscriptId, days }: { manuscriptId: number; days: number | null }) {
  const queryClient = useQueryClient();
  const [on, setOn] = useState(days !== null);
  const [value, setValue] = useState(String(days ?? REMINDER_DAYS_DEFAULT));
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await saveReminderDays(manuscriptId, on ? Number(value) : null);
      setMessage({ tone: 'success', text: 'Saved.' });
      await queryClient.invalidateQueries({ queryKey: insightsKeys.insights(manuscriptId) });
    } catch (error) {
      setMessage({ tone: 'error', text: errorMessage(error) });
    }
  };

  return (
    <form
      className="space-y-3 border-t border-line pt-6"
      onSubmit={handleSubmit}
      aria-labelledby="insights-reminders"
    >
      <h3 id="insights-reminders" className="font-serif text-lg font-semibold">
        Reminders
      </h3>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={on} onChange={(event) => setOn(event.target.checked)} />
        Remind readers who have not read for
        <input
          type="number"
          min={1}
          max={REMINDER_DAYS_MAX}
          value={value}
          disabled={!on}
          aria-label="Days without reading"
          className="field-input w-20"
          onChange={(event) => setValue(event.target.value)}
        />
        days
      </label>
      <p className="text-xs text-muted">
        One polite mail at most per reader in that time; never after they finish or stop, and only
        to readers who want reminders.
      </p>
      {message ? <FormAlert tone={message.tone}>{message.text}</FormAlert> : null}
      <button type="submit" className="btn btn-secondary">
        Save
      </button>
    </form>
  );
}
