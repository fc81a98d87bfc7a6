import type { ClockAnchor } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';

export const serviceClockTable = (executor: SqlExecutor): Store['serviceClock'] => ({
  async read() {
    const [row] = await executor.query<{ wallMs: unknown; scaledMs: unknown; scale: unknown }>(
      'SELECT anchor_wall_ms AS "wallMs", anchor_scaled_ms AS "scaledMs", scale FROM service_clock',
    );
    return row === undefined
      ? null
      : { wallMs: Number(row.wallMs), scaledMs: Number(row.scaledMs), scale: Number(row.scale) };
  },
  async write(anchor: ClockAnchor) {
    await executor.query(
      `INSERT INTO service_clock (id, anchor_wall_ms, anchor_scaled_ms, scale) VALUES (true, $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET anchor_wall_ms = $1, anchor_scaled_ms = $2, scale = $3`,
      [Math.round(anchor.wallMs), Math.round(anchor.scaledMs), anchor.scale],
    );
  },
});
