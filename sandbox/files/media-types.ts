// The file types Foundry accepts in uploads (its UPLOADABLE_FILE_EXTENSIONS) and the media type each is served with.

const MEDIA_TYPES: Record<string, string> = {
  apng: 'image/apng',
  avif: 'image/avif',
  bmp: 'image/bmp',
  gif: 'image/gif',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  tiff: 'image/tiff',
  webp: 'image/webp',
  m4v: 'video/x-m4v',
  mp4: 'video/mp4',
  ogv: 'video/ogg',
  webm: 'video/webm',
  aac: 'audio/aac',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  mid: 'audio/midi',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/opus',
  wav: 'audio/wav',
  csv: 'text/csv',
  json: 'application/json',
  md: 'text/markdown',
  pdf: 'application/pdf',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
  xml: 'application/xml',
  yml: 'application/yaml',
  yaml: 'application/yaml',
  otf: 'font/otf',
  ttf: 'font/ttf',
  woff: 'font/woff',
  woff2: 'font/woff2',
  fbx: 'application/octet-stream',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  mtl: 'text/plain',
  obj: 'model/obj',
  stl: 'model/stl',
  usdz: 'model/vnd.usdz+zip',
};

export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

export function isUploadable(name: string): boolean {
  return Object.hasOwn(MEDIA_TYPES, extensionOf(name));
}

export function mimeTypeOf(name: string): string {
  const extension = extensionOf(name);
  return Object.hasOwn(MEDIA_TYPES, extension) ? MEDIA_TYPES[extension]! : 'application/octet-stream';
}
