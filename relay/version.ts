export const RELAY_VERSION = '0.1.0';
