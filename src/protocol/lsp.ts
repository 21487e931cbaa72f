/**
 * What the language server and the extension's language client agree on
 * beyond LSP itself.
 */

/**
 * The command the "Step through" code lens runs, with the scenario's URI (a
 * string) as its argument. The language client registers it and opens the
 * scenario as `controllerStepper.open` does.
 */
export const OPEN_SCENARIO_COMMAND = 'controllerStepper.openScenario';

/** `initializationOptions` the client sends. */
export interface ServerInitOptions {
  /** the extension's controllerStepper.kubernetesVersion: the version for documents that do not name one */
  kubernetesVersion?: string;
  /** the workspace is trusted: a scenario may read snapshot:/configFile: paths outside its folder tree */
  allowOutside?: boolean;
  /** the workspace's folders, whose trees a scenario may read */
  roots?: string[];
}

/** The language ids and file patterns the client hands to the server. */
export const LSP_DOCUMENT_LANGUAGES = ['yaml', 'json'] as const;
