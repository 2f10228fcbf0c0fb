// The property inspector of every action: the Stream Deck app loads ui/settings.html and calls
// connectElgatoStreamDeckSocket; this script speaks the property inspector's WebSocket protocol itself (register,
// setSettings, getGlobalSettings, setGlobalSettings, sendToPlugin), and loads nothing from the network.

interface ActionInfo {
  action: string;
  context: string;
  payload: { settings: Record<string, unknown> };
}

interface Message {
  event: string;
  payload?: { settings?: Record<string, unknown>; playlists?: { id: string; name: string }[] };
}

const PLUGIN_UUID = 'org.tabletoprelay.deck';

function connect(port: string, uuid: string, registerEvent: string, _info: string, actionInfo: string): void {
  const action = JSON.parse(actionInfo) as ActionInfo;
  const name = action.action.slice(PLUGIN_UUID.length + 1);
  const socket = new WebSocket(`ws://127.0.0.1:${port}`);
  const send = (event: string, payload?: unknown) =>
    socket.send(JSON.stringify({ event, context: uuid, action: action.action, payload }));
  const actionForm = document.getElementById('action-settings') as HTMLFormElement;
  const globalForm = document.getElementById('global-settings') as HTMLFormElement;
  let settings = { ...action.payload.settings };
  let globals: Record<string, unknown> = {};

  for (const section of actionForm.querySelectorAll<HTMLElement>('section')) {
    const shown = (section.dataset.for ?? '').split(' ').includes(name);
    section.classList.toggle('shown', shown);
    for (const field of section.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select'))
      field.disabled = !shown;
  }
  fill(actionForm, settings);

  socket.addEventListener('open', () => {
    socket.send(JSON.stringify({ event: registerEvent, uuid }));
    send('getGlobalSettings');
    send('sendToPlugin', { request: 'playlists' });
  });
  socket.addEventListener('message', (frame) => {
    const message = JSON.parse(String(frame.data)) as Message;
    if (message.event === 'didReceiveGlobalSettings') {
      globals = message.payload?.settings ?? {};
      fill(globalForm, globals);
    } else if (message.event === 'didReceiveSettings') {
      settings = message.payload?.settings ?? {};
      fill(actionForm, settings);
    } else if (message.event === 'sendToPropertyInspector' && message.payload?.playlists) {
      showPlaylists(message.payload.playlists, String(settings.playlistId ?? ''));
    }
  });

  actionForm.addEventListener('change', () => {
    settings = { ...settings, ...read(actionForm) };
    send('setSettings', settings);
  });
  globalForm.addEventListener('change', () => {
    globals = { ...globals, ...read(globalForm) };
    send('setGlobalSettings', globals);
  });
  document.getElementById('ask-again')?.addEventListener('click', () => {
    globals = { ...globals, apiKey: '' };
    fill(globalForm, globals);
    send('setGlobalSettings', globals);
  });
}

function fields(form: HTMLFormElement): (HTMLInputElement | HTMLSelectElement)[] {
  return [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name], select[name]')].filter(
    (field) => !field.disabled,
  );
}

function fill(form: HTMLFormElement, values: Record<string, unknown>): void {
  for (const field of fields(form)) {
    const value = values[field.name];
    if (field instanceof HTMLInputElement && field.type === 'checkbox') field.checked = value === true;
    else if (field instanceof HTMLSelectElement && typeof value === 'string' && value) {
      if (![...field.options].some((option) => option.value === value)) field.add(new Option(value, value));
      field.value = value;
    } else field.value = typeof value === 'string' ? value : '';
  }
}

function read(form: HTMLFormElement): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const field of fields(form))
    values[field.name] =
      field instanceof HTMLInputElement && field.type === 'checkbox' ? field.checked : field.value.trim();
  return values;
}

function showPlaylists(playlists: { id: string; name: string }[], selected: string): void {
  const select = document.querySelector<HTMLSelectElement>('select[name="playlistId"]');
  if (!select) return;
  select.replaceChildren(new Option('Choose a playlist', ''), ...playlists.map((p) => new Option(p.name, p.id)));
  if (selected && !playlists.some((playlist) => playlist.id === selected)) select.add(new Option(selected, selected));
  select.value = selected;
  const hint = document.querySelector<HTMLElement>('[data-playlists-hint]');
  if (hint) hint.hidden = playlists.length > 0;
}

Object.assign(globalThis, { connectElgatoStreamDeckSocket: connect });
