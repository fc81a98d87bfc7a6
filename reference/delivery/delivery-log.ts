/** The part of a pino-style logger the dispatcher uses: `info(fields, message)`. */
export interface DeliveryLog {
  info(fields: Record<string, unknown>, message: string): void;
}

export const silentLog: DeliveryLog = { info() {} };

/** One JSON line per entry on a stream, in pino's shape (level 30 is info), for `npm start`. */
export function jsonLineLog(stream: NodeJS.WritableStream = process.stdout): DeliveryLog {
  return {
    info(fields, message) {
      stream.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: message, ...fields })}\n`);
    },
  };
}
