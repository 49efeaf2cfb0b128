import { useEffect, useRef } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

// Only the parts these charts use (Chart.js is tree-shaken: line, bar, two scales, tooltips).
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

/** A theme colour (CSS custom property on the root), so charts follow light and dark. */
function themeColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

function useChart(config: () => ChartConfiguration, dependencies: unknown[]) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const chart = new Chart(canvas, config());
    return () => chart.destroy();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the data decides, not the closure
  }, dependencies);
  return canvasRef;
}

function axes(yTitle: string, wholeNumbers: boolean) {
  const ink = themeColour('--muted', '#6b6b6b');
  const grid = themeColour('--line', '#e5e5e5');
  return {
    x: { ticks: { color: ink, autoSkip: true, maxRotation: 0 }, grid: { display: false } },
    y: {
      beginAtZero: true,
      ticks: wholeNumbers ? { color: ink, precision: 0 } : { color: ink },
      grid: { color: grid },
      title: { display: true, text: yTitle, color: ink },
    },
  };
}

interface ChartProps {
  labels: string[];
  values: Array<number | null>;
  /** What the chart shows, in one sentence, for screen readers. */
  summary: string;
  testId: string;
}

/** The drop-off curve: readers who started, then who reached each chapter. */
export function DropOffChart({ labels, values, summary, testId }: ChartProps) {
  const canvasRef = useChart(
    () => ({
      type: 'line',
      data: {
        labels,
        datasets: [
          {
            label: 'Readers',
            data: values,
            borderColor: themeColour('--accent', '#b4532a'),
            backgroundColor: themeColour('--accent-soft', 'rgba(180,83,42,0.15)'),
            fill: true,
            tension: 0.25,
            stepped: false,
          },
        ],
      },
      options: { maintainAspectRatio: false, animation: false, scales: axes('Readers', true) },
    }),
    [labels.join('\u0000'), values.join(',')],
  );
  return (
    <div className="relative h-56">
      <canvas ref={canvasRef} role="img" aria-label={summary} data-testid={testId} />
    </div>
  );
}

/** One bar per chapter (time per 1,000 words, or engagement per 1,000 words). */
export function ChapterBars({
  labels,
  values,
  summary,
  testId,
  yTitle,
}: ChartProps & { yTitle: string }) {
  const canvasRef = useChart(
    () => ({
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            label: yTitle,
            data: values,
            backgroundColor: themeColour('--accent', '#b4532a'),
            borderRadius: 3,
          },
        ],
      },
      options: { maintainAspectRatio: false, animation: false, scales: axes(yTitle, false) },
    }),
    [labels.join('\u0000'), values.join(','), yTitle],
  );
  return (
    <div className="relative h-48">
      <canvas ref={canvasRef} role="img" aria-label={summary} data-testid={testId} />
    </div>
  );
}
