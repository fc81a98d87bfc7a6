import { isUtf8 } from 'node:buffer';

/** A UTF-8 Encoded String as MQTT allows it: well-formed UTF-8 without U+0000 [MQTT-1.5.4-1, MQTT-1.5.4-2]. */
export function isMqttString(bytes: Buffer): boolean {
  return isUtf8(bytes) && !bytes.includes(0);
}
