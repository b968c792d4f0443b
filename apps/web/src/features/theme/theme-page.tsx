import {
  Badge,
  BlockStack,
  Box,
  Button,
  InlineStack,
  Layout,
  Page,
  Select,
  SkeletonBodyText,
  Text,
} from '@shopify/polaris'
import type { AppBlockSupport, ScriptTag } from '@teiki/contract'
import { formatDateTimeJa } from '@teiki/domain'
import { useCallback, useMemo } from 'react'
import { LoadErrorState } from '../../app/load-state.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useLoadInto } from '../../app/use-api.ts'
import { useReducerState } from '../../app/use-reducer-state.ts'
import { createThemeActions } from './theme-actions.ts'
import { httpThemeApi } from './theme-api.ts'
import {
  initialThemeState,
  scopeLabel,
  type ThemeAction,
  type ThemeState,
  themeLabel,
  themeReducer,
  widgetStatus,
} from './theme-state.ts'

/** テーマ: the storefront widget in the shop's themes (spec §7 "Theme") and the script tags. */
export default function ThemePage() {
  const ui = useUiState()
  const [state, dispatch, getState] = useReducerState(themeReducer, initialThemeState)
  const retryThemes = useLoadInto(['GET /themes'], () => httpThemeApi.themes(), {
    loaded: (themes) => dispatch({ type: 'themesLoaded', themes }),
    failed: (message) => dispatch({ type: 'themesFailed', message }),
  })
  const { themeId } = state
  const retrySupport = useLoadInto(
    themeId ? ['GET /themes/:id/templates/:t/app-block-support', themeId] : null,
    () => httpThemeApi.support(themeId ?? ''),
    {
      loading: () => dispatch({ type: 'supportLoading' }),
      loaded: (support) => dispatch({ type: 'supportLoaded', support }),
      failed: (message) => dispatch({ type: 'supportFailed', message }),
    },
  )
  const retryTags = useLoadInto(['GET /script-tags'], () => httpThemeApi.scriptTags(), {
    loading: () => dispatch({ type: 'tagsLoading' }),
    loaded: (tags) => dispatch({ type: 'tagsLoaded', tags }),
    failed: (message) => dispatch({ type: 'tagsFailed', message }),
  })
  const retry = useCallback(
    (part: 'themes' | 'support' | 'tags') =>
      ({ themes: retryThemes, support: retrySupport, tags: retryTags })[part](),
    [retryThemes, retrySupport, retryTags],
  )

  const actions = useMemo(
    () =>
      createThemeActions({
        api: httpThemeApi,
        ui,
        dispatch,
        getState,
        reloadSupport: () => retry('support'),
        openUrl: (url) => void window.open(url, '_blank', 'noopener'),
      }),
    [ui, retry, getState, dispatch],
  )

  return (
    <Page title="テーマ" subtitle="ストアの商品ページに定期購入のウィジェット（アプリブロック）を表示します">
      <Layout>
        <Layout.Section>
          <WidgetCard
            state={state}
            dispatch={dispatch}
            onAdd={() => void actions.addWidget()}
            onRetry={() => retry(state.themes.status === 'error' ? 'themes' : 'support')}
            onRecheck={() => retry('support')}
          />
        </Layout.Section>
        <Layout.Section>
          <ScriptTagsCard state={state} onDelete={actions.confirmDelete} onRetry={() => retry('tags')} />
        </Layout.Section>
      </Layout>
    </Page>
  )
}

export function WidgetCard({
  state,
  dispatch,
  onAdd,
  onRetry,
  onRecheck,
}: {
  state: ThemeState
  dispatch: (action: ThemeAction) => void
  onAdd: () => void
  onRetry: () => void
  /** Reads the theme again (after 保存 in the theme editor). */
  onRecheck: () => void
}) {
  const { themes, support } = state
  return (
    <SectionCard title="商品ページのウィジェット">
      {themes.status === 'error' ? (
        <LoadErrorState title="テーマを読み込めませんでした" message={themes.message} onRetry={onRetry} />
      ) : themes.status === 'loading' ? (
        <SkeletonBodyText lines={3} />
      ) : themes.data.length === 0 ? (
        <Text as="p" tone="subdued">
          ストアにテーマがありません。オンラインストアにテーマを追加してください。
        </Text>
      ) : (
        <>
          <Select
            label="テーマ"
            options={themes.data.map((t) => ({ label: themeLabel(t), value: t.id }))}
            value={state.themeId ?? ''}
            onChange={(themeId) => dispatch({ type: 'themeChosen', themeId })}
          />
          {support.status === 'error' ? (
            <LoadErrorState
              title="テーマを確認できませんでした"
              message={support.message}
              onRetry={onRetry}
            />
          ) : support.status === 'loading' ? (
            <SkeletonBodyText lines={3} />
          ) : (
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Badge tone={widgetStatus(support.data).tone}>{widgetStatus(support.data).label}</Badge>
                <Text as="p">{support.data.message}</Text>
              </InlineStack>
              <WidgetActions
                support={support.data}
                busy={state.busy !== null}
                adding={state.busy?.kind === 'addWidget'}
                onAdd={onAdd}
                onRecheck={onRecheck}
              />
              {!support.data.previewUrl && (
                <Text as="p" tone="subdued">
                  定期購入できる商品がオンラインストアに公開されていないため、ストアで確認できません。
                </Text>
              )}
            </BlockStack>
          )}
        </>
      )}
    </SectionCard>
  )
}

/**
 * ウィジェットを追加 and its companions. Where the platform lets the app write theme files (or it
 * has not refused yet) the button asks the server; where it refused, the button is the theme
 * editor's link at the block, with 追加を確認 to read the theme again after 保存. Either way the
 * card says which, and why.
 */
function WidgetActions({
  support,
  busy,
  adding,
  onAdd,
  onRecheck,
}: {
  support: AppBlockSupport
  busy: boolean
  adding: boolean
  onAdd: () => void
  onRecheck: () => void
}) {
  const blocked = !support.supported || support.blockAdded
  const byEditor = support.widgetMethod === 'themeEditor'
  return (
    <BlockStack gap="200">
      {support.supported && !support.blockAdded && (
        <Text as="p" tone="subdued">
          {support.widgetMethodMessage}
        </Text>
      )}
      <InlineStack gap="200">
        {byEditor ? (
          <>
            <Button
              variant="primary"
              url={support.editorUrl ?? undefined}
              external
              disabled={blocked || !support.editorUrl || busy}
            >
              ウィジェットを追加
            </Button>
            <Button onClick={onRecheck} disabled={blocked || busy}>
              追加を確認
            </Button>
          </>
        ) : (
          <>
            <Button variant="primary" onClick={onAdd} loading={adding} disabled={blocked || busy}>
              ウィジェットを追加
            </Button>
            {support.editorUrl && (
              <Button url={support.editorUrl} external>
                テーマエディタで開く
              </Button>
            )}
          </>
        )}
        {support.previewUrl && (
          <Button url={support.previewUrl} external>
            ストアで確認
          </Button>
        )}
      </InlineStack>
    </BlockStack>
  )
}

export function ScriptTagsCard({
  state,
  onDelete,
  onRetry,
}: {
  state: ThemeState
  onDelete: (tag: ScriptTag) => void
  onRetry: () => void
}) {
  const tags = state.scriptTags
  return (
    <SectionCard title="スクリプトタグ">
      {tags.status === 'error' ? (
        <LoadErrorState
          title="スクリプトタグを読み込めませんでした"
          message={tags.message}
          onRetry={onRetry}
        />
      ) : tags.status === 'loading' ? (
        <SkeletonBodyText lines={2} />
      ) : tags.data.length === 0 ? (
        <Text as="p" tone="subdued">
          スクリプトタグはありません。ウィジェットはテーマアプリ拡張で表示されます。
        </Text>
      ) : (
        <BlockStack gap="200">
          {tags.data.map((tag) => (
            <Box key={tag.id} paddingBlockEnd="200" borderBlockEndWidth="025" borderColor="border">
              <InlineStack align="space-between" blockAlign="center" wrap={false} gap="400">
                <BlockStack gap="100">
                  <Text as="p" breakWord>
                    {tag.src}
                  </Text>
                  <Text as="p" tone="subdued" variant="bodySm">
                    表示先: {scopeLabel(tag.displayScope)}・登録: {formatDateTimeJa(tag.createdAt)}
                  </Text>
                </BlockStack>
                <Button
                  tone="critical"
                  onClick={() => onDelete(tag)}
                  loading={state.busy?.kind === 'deleteTag' && state.busy.id === tag.id}
                  disabled={state.busy !== null}
                  accessibilityLabel={`${tag.src} を削除`}
                >
                  削除
                </Button>
              </InlineStack>
            </Box>
          ))}
        </BlockStack>
      )}
    </SectionCard>
  )
}
