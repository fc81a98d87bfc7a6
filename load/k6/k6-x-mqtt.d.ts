// @types/k6 2.3 has no types for the official MQTT extension `k6/x/mqtt` (k6 2.x resolves it automatically when a
// script imports it). This declares only what the generated scripts use, after the k6 documentation of the module
// (grafana.com/docs/k6/latest/javascript-api/k6-x-mqtt): a Client modelled on MQTT.js.
declare module 'k6/x/mqtt' {
  export interface ClientOptions {
    client_id?: string;
    username?: string;
    password?: string;
  }

  export interface ConnectOptions {
    keepalive?: number;
    connect_timeout?: number;
    clean_session?: boolean;
  }

  export interface PublishOptions {
    qos?: 0 | 1 | 2;
    retain?: boolean;
    tags?: Record<string, string>;
  }

  export interface SubscribeOptions {
    qos?: 0 | 1 | 2;
    tags?: Record<string, string>;
  }

  export interface MqttError {
    name: string;
    message: string;
    method: string;
  }

  export class Client {
    constructor(options?: ClientOptions);
    connect(url: string, options?: ConnectOptions): void;
    publish(topic: string, payload: string | ArrayBuffer, options?: PublishOptions): void;
    subscribe(topic: string | string[], options?: SubscribeOptions): void;
    end(): void;
    on(event: 'connect' | 'end' | 'reconnect', listener: () => void): void;
    on(event: 'message', listener: (topic: string, payload: ArrayBuffer) => void): void;
    on(event: 'error', listener: (error: MqttError) => void): void;
  }
}
