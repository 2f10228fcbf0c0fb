// Builds elements from world data: text always goes in through textContent, never as HTML.

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  if (className) created.className = className;
  for (const child of children) {
    if (child === null || child === undefined) continue;
    created.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return created;
}

export function text<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  value: string | number,
): HTMLElementTagNameMap[K] {
  const created = element(tag, className);
  created.textContent = String(value);
  return created;
}

/** A bar filled to `value / max`, e.g. hit points; its colour follows how full it is. */
export function meter(value: number, max: number, className = 'meter'): HTMLElement {
  const ratio = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  const fill = element('span', 'meter-fill');
  fill.style.width = `${(ratio * 100).toFixed(1)}%`;
  const level = ratio > 0.5 ? 'healthy' : ratio > 0.25 ? 'hurt' : 'critical';
  return element('span', `${className} meter-${level}`, fill);
}

/** Only images a page may show: data URLs of images and http(s) or same-relay addresses. */
export function safeImageUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (/^data:image\//i.test(url)) return url;
  try {
    const resolved = new URL(url, location.href);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : undefined;
  } catch {
    return undefined;
  }
}
