export { MinoService } from './minoService';
export { clientId, type ClientId, type EventSink } from './clients';
export { dispatchInvoke, type DispatchTarget, type InvokeHandlers } from './dispatch';
export type { FolderPicker, SecretStore, ServicePorts } from './ports';
