/** "Select Model…" and "Refresh Models": the service's models, stored in the modelId setting. */
import * as vscode from 'vscode';
import type { Model, ModelList } from '../api';
import { type Config, updateSetting } from '../config';
import { UserFacingError } from '../errors';
import type { ModelCatalog } from '../stores/modelCatalog';
import type { UserInterface } from '../ui';

export interface ModelDeps {
  ui: UserInterface;
  models: ModelCatalog;
  config: Pick<Config, 'settings'>;
}

export interface ModelPickItem extends vscode.QuickPickItem {
  /** undefined: the service default (the setting is cleared). */
  modelId: string | undefined;
}

function modelPickItems(list: ModelList, current: string | undefined): ModelPickItem[] {
  const options = list.options ?? [];
  const defaultId = list.defaultModelId ?? undefined;
  const mark = (on: boolean) => (on ? '$(check) ' : '');
  const items: ModelPickItem[] = [
    {
      label: `${mark(!current)}${vscode.l10n.t('Service default')}`,
      description: defaultId ? vscode.l10n.t('currently {0}', options.find(m => m.id === defaultId)?.label ?? defaultId) : undefined,
      detail: vscode.l10n.t('Clears the multiAgent.modelId setting: the service chooses.'),
      modelId: undefined,
    },
  ];
  for (const model of options) {
    items.push({
      label: `${mark(model.id === current)}${model.label || model.id}`,
      description: [model.badge, model.description].filter(Boolean).join(' · ') || undefined,
      detail: detailOf(model, defaultId, current),
      modelId: model.id,
    });
  }
  if (current && !options.some(m => m.id === current)) {
    items.push({
      label: `${mark(true)}${current}`,
      description: vscode.l10n.t('from your settings'),
      detail: vscode.l10n.t("Not in the service's list."),
      modelId: current,
    });
  }
  return items;
}

function detailOf(model: Model, defaultId: string | undefined, current: string | undefined): string {
  return [
    model.id,
    model.id === defaultId ? vscode.l10n.t('service default') : undefined,
    model.id === current ? vscode.l10n.t('current') : undefined,
    model.usageMultiple ? vscode.l10n.t('{0}× usage', model.usageMultiple) : undefined,
    model.reasoningEffortLevels?.length ? vscode.l10n.t('reasoning: {0}', model.reasoningEffortLevels.join('/')) : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Returns the chosen id ('' for the service default), or undefined when the user backed out. */
export async function selectModel(s: ModelDeps): Promise<string | undefined> {
  const list = await s.models.list();
  if (list.enabled === false) throw new UserFacingError(vscode.l10n.t('The service does not offer a choice of models for this account.'));
  const current = s.config.settings.modelId;
  const items = modelPickItems(list, current);
  const picked = await s.ui.pick(items, {
    title: vscode.l10n.t('Model for New Tasks'),
    placeHolder: vscode.l10n.t('Current: {0}', current ?? vscode.l10n.t('service default')),
    matchOnDetail: true,
  });
  if (!picked) return undefined;
  await updateSetting('modelId', picked.modelId);
  // Confirmed where the user looks next; the Tasks view's description shows it too (views/trees/sidebar.ts).
  const name = picked.modelId ? (list.options?.find(m => m.id === picked.modelId)?.label || picked.modelId) : vscode.l10n.t('service default');
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Model for new tasks: {0}', name), 5000);
  return picked.modelId ?? '';
}

export async function refreshModels(s: Pick<ModelDeps, 'ui' | 'models'>): Promise<number> {
  const list = await s.models.list(true);
  const n = list.options?.length ?? 0;
  void s.ui.info(n === 1 ? vscode.l10n.t('The service offers 1 model.') : vscode.l10n.t('The service offers {0} models.', n));
  return n;
}
