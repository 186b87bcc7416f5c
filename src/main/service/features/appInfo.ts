import type { AppInfo } from '../../../shared/ipc';
import type { ServicePorts } from '../ports';

export function appInfo(ports: Pick<ServicePorts, 'appName' | 'appVersion' | 'logDirectory'>): AppInfo {
  return { name: ports.appName, version: ports.appVersion, platform: process.platform, logDirectory: ports.logDirectory ?? null };
}
