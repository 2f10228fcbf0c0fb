import { Notification } from 'electron';
import type { Notice, ShownNotice } from './waiting-notices.ts';

/**
 * Shows a notice as a system notification (https://www.electronjs.org/docs/latest/api/notification). A Notification is
 * shown only once `show()` is called, and its `click` reaches the app only while the object lives, so the caller keeps
 * what this returns until it closes it. Undefined where the system has no notifications.
 */
export function showNotification(notice: Notice, onClick: () => void, iconPath: string): ShownNotice | undefined {
  if (!Notification.isSupported()) return undefined;
  const notification = new Notification({ title: notice.title, body: notice.body, icon: iconPath });
  notification.on('click', onClick);
  notification.show();
  return notification;
}
