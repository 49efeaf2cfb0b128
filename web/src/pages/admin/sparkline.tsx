/** The points of a sparkline's polyline for `counts` in a width × height box (pure, tested). */
export function sparklinePoints(counts: number[], width: number, height: number): string {
  if (counts.length === 0) return '';
  const max = Math.max(1, ...counts);
  const step = counts.length > 1 ? width / (counts.length - 1) : 0;
  // One pixel of margin, so that a flat line at zero or at the top is not cut by the box.
  const usable = height - 2;
  return counts
    .map((count, index) => {
      const x = counts.length > 1 ? index * step : width / 2;
      const y = 1 + usable - (count / max) * usable;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

interface SparklineProps {
  counts: number[];
  /** What the line shows, for screen readers (the numbers are in the card's text). */
  label: string;
  width?: number;
  height?: number;
}

/** A small trend line drawn as SVG (no chart library in the admin chunk). */
export function Sparkline({ counts, label, width = 160, height = 36 }: SparklineProps) {
  const points = sparklinePoints(counts, width, height);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      className="admin-sparkline"
      preserveAspectRatio="none"
    >
      <polyline
        points={`0,${height} ${points} ${width},${height}`}
        fill="currentColor"
        fillOpacity={0.12}
        stroke="none"
      />
      <polyline
        points={points}
        fill="none"
        stroke="currentColor"
        strokeWidth={1.5}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}
