import type { WeekRow } from "../../src/reports/conversion.ts";

/** The five series, in bar order; their colours are classes in static/css/reports.css. */
export const SERIES = [
  { key: "created", label: "Created" },
  { key: "accepted", label: "Accepted" },
  { key: "finalized", label: "Finalized" },
  { key: "closed", label: "Closed" },
  { key: "expired", label: "Expired" },
] as const;

const WIDTH = 760;
const HEIGHT = 260;
const PAD = { top: 16, right: 12, bottom: 40, left: 40 };
const dayLabel = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
const labelOf = (day: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return dayLabel.format(new Date(y, m - 1, d));
};

/** A tidy axis top: 1, 2, 5 × 10ⁿ at or above the largest count. */
export function niceMax(max: number): number {
  if (max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/**
 * Quotes per week as grouped bars, drawn on the server as SVG: no script, no
 * inline styles (the CSP allows neither). The table under it carries the same
 * numbers for screen readers and for copying.
 */
export function ConversionChart({ weeks }: { weeks: WeekRow[] }) {
  const top = niceMax(Math.max(0, ...weeks.map((w) => w.created)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const group = plotW / Math.max(weeks.length, 1);
  const bar = Math.max(1, Math.min(14, (group * 0.8) / SERIES.length));
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  // Enough labels to read, never overlapping: at most about 12.
  const every = Math.max(1, Math.ceil(weeks.length / 12));
  const ticks = [0, top / 4, top / 2, (3 * top) / 4, top];
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="chart-title chart-desc"
        className="chart-svg"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id="chart-title">Quotes per week</title>
        <desc id="chart-desc">
          For each week, bars for quotes created, accepted, finalized, closed and expired. The table
          below gives the same numbers.
        </desc>
        {ticks.map((t) => (
          <g key={t}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(t)}
              y2={y(t)}
              className="chart-grid"
            />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className="chart-axis">
              {Number.isInteger(t) ? t : ""}
            </text>
          </g>
        ))}
        {weeks.map((w, i) => {
          const x0 = PAD.left + i * group + (group - bar * SERIES.length) / 2;
          return (
            <g key={w.week}>
              {SERIES.map((s, j) => {
                const value = w[s.key];
                return (
                  <rect
                    key={s.key}
                    x={x0 + j * bar}
                    y={y(value)}
                    width={Math.max(bar - 1, 1)}
                    height={PAD.top + plotH - y(value)}
                    className={`chart-bar chart-${s.key}`}
                  >
                    <title>{`Week of ${labelOf(w.week)}: ${value} ${s.label.toLowerCase()}`}</title>
                  </rect>
                );
              })}
              {i % every === 0 && (
                <text
                  x={PAD.left + i * group + group / 2}
                  y={HEIGHT - PAD.bottom + 16}
                  textAnchor="middle"
                  className="chart-axis"
                >
                  {labelOf(w.week)}
                </text>
              )}
            </g>
          );
        })}
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={PAD.top + plotH}
          y2={PAD.top + plotH}
          className="chart-baseline"
        />
      </svg>
      <figcaption>
        <ul className="chart-legend">
          {SERIES.map((s) => (
            <li key={s.key}>
              <span className={`chart-swatch chart-${s.key}`} aria-hidden="true" />
              {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
