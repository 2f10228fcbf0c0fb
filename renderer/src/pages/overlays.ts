// The Overlays page: make an overlay link for OBS, tune it against a live preview, copy it, and manage the links.
import { admin, type KnownWorld, type NewOverlayLink, type OverlayLink } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { confirmDialog, emptyState, h, replaceChildren, toast } from '../dom.ts';
import { newestFirst, overlayLinksTable, revokeOverlayLink } from '../components/overlay-links.ts';
import { worldChoices, overlayLinkForm } from '../components/overlay-link-form.ts';
import { overlayStudio, type OverlayStudio } from '../components/overlay-studio.ts';

function noWorldYet(): HTMLElement {
  return h(
    'div',
    { class: 'card' },
    emptyState(
      'world',
      'Pair a world first',
      'An overlay shows what happens in one of your worlds: the rolls, the combat, the music. Pair your Foundry world on the Status page, then come back to make an overlay.',
      h('a', { class: 'button button-primary', href: '#status' }, 'Go to Status'),
    ),
  );
}

export const overlaysPage: Page = {
  id: 'overlays',
  title: 'Overlays',
  subtitle: 'Live dice, initiative, music and characters for OBS',
  icon: 'overlays',
  render(state: AppState) {
    const top = h('div', { class: 'stack' });
    const listTitle = h(
      'div',
      { class: 'section-title' },
      h('h2', {}, 'Overlay links'),
      h('p', { class: 'muted small' }, 'Read-only links in OBS URLs; also listed with the API keys.'),
    );
    const list = h('div', {});
    const element = h('div', { class: 'stack' }, top, h('div', { class: 'stack overlay-list' }, listTitle, list));
    let known: KnownWorld[] = [];
    let links: OverlayLink[] = [];
    let open: OverlayStudio | undefined;
    let worldsKey = '';

    const closeStudio = () => {
      open?.dispose();
      open = undefined;
    };
    const drawTop = () => {
      closeStudio();
      const worlds = worldChoices(state.status.get(), known);
      worldsKey = worlds.map((world) => `${world.clientId}:${world.connected}`).join(',');
      replaceChildren(
        top,
        worlds.length === 0 ? noWorldYet() : overlayLinkForm(state, worlds, (made) => show(made, 'created')),
      );
    };
    const show = (made: NewOverlayLink, verb: 'created' | 'rotated') => {
      closeStudio();
      open = overlayStudio(state, made, verb, drawTop, () => void reloadList());
      replaceChildren(top, open.element);
      open.element.scrollIntoView({ block: 'start' });
      void reloadList();
    };
    const rotate = async (link: OverlayLink) => {
      const sure = await confirmDialog({
        title: `New URL for "${link.name}"?`,
        message: 'The current URL stops working at once: paste the new one into OBS afterwards.',
        confirm: 'Make a new URL',
      });
      if (!sure) return;
      try {
        show(await admin.rotateOverlayLink(link.id), 'rotated');
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const revoke = async (link: OverlayLink) => {
      if (!(await revokeOverlayLink(link))) return;
      if (open && top.querySelector(`[data-overlay-link-id="${link.id}"]`)) drawTop();
      await reloadList();
    };
    const drawList = () => {
      listTitle.hidden = links.length === 0;
      replaceChildren(
        list,
        links.length === 0
          ? null
          : overlayLinksTable(links, state.status.get(), known, {
              rotate: (link) => void rotate(link),
              revoke: (link) => void revoke(link),
            }),
      );
    };
    const reloadList = async () => {
      try {
        links = newestFirst((await admin.overlayLinks()).links);
        drawList();
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const reloadWorlds = async () => {
      try {
        known = (await admin.knownWorlds()).worlds;
      } catch (error) {
        toast((error as Error).message, 'error');
      }
      if (!open) drawTop();
      drawList();
    };
    // A world pairing or connecting changes what the form offers; the open preview stays.
    const stopStatus = state.status.onChange((status) => {
      const worlds = worldChoices(status, known);
      const key = worlds.map((world) => `${world.clientId}:${world.connected}`).join(',');
      if (key !== worldsKey && !open) void reloadWorlds();
    });
    let pending: ReturnType<typeof setTimeout> | undefined;
    const stopActivity = state.activity.onChange(() => {
      clearTimeout(pending);
      pending = setTimeout(() => void reloadList(), 500);
    });
    replaceChildren(top, h('div', { class: 'card skeleton' }));
    void reloadWorlds();
    void reloadList();
    return {
      element,
      dispose: () => {
        closeStudio();
        stopStatus();
        stopActivity();
        clearTimeout(pending);
      },
    };
  },
};
