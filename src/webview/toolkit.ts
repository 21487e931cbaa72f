/**
 * The one place the webview UI toolkit's components are registered (it is
 * deprecated upstream: swapping it means changing this file and the tag names).
 */
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeTextField, vsCodeCheckbox, vsCodeBadge, vsCodeDivider } from '@vscode/webview-ui-toolkit';

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeTextField(), vsCodeCheckbox(), vsCodeBadge(), vsCodeDivider());
}
