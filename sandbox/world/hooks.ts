// Foundry's Hooks: named events with ordered listeners that can be removed by id.

export type HookListener = (...args: unknown[]) => void;

export class Hooks {
  #listeners = new Map<string, Map<number, HookListener>>();
  #nextId = 1;

  on(name: string, listener: HookListener): number {
    const id = this.#nextId++;
    if (!this.#listeners.has(name)) this.#listeners.set(name, new Map());
    this.#listeners.get(name)!.set(id, listener);
    return id;
  }

  off(name: string, id: number): void {
    this.#listeners.get(name)?.delete(id);
  }

  callAll(name: string, ...args: unknown[]): void {
    for (const listener of [...(this.#listeners.get(name)?.values() ?? [])]) listener(...args);
  }
}
