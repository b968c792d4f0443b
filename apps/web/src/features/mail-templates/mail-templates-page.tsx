import {
  Badge,
  BlockStack,
  Box,
  Card,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from '@shopify/polaris'
import type { MailTemplateResponse } from '@teiki/contract'
import { LeaveGuard } from '../../app/leave-guard.tsx'
import { LoadErrorState, LoadingState } from '../../app/load-state.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { ShopMailCard } from './shop-mail-card.tsx'
import { TestMailCard } from './test-mail-card.tsx'
import { type Draft, useTemplateEditor } from './use-template-editor.ts'

/** メールテンプレート: what each mail to a customer says, with a preview, a test mail and the sender. */
export default function MailTemplatesPage() {
  const editor = useTemplateEditor()
  const { list, type, template, loaded, draft, saving, dirty, retry } = editor
  const options = (list.data?.templates ?? []).map((t) => ({
    value: t.type,
    label: `${t.label}${t.customized ? '（編集済み）' : ''}`,
  }))
  const viewer = list.data?.mailViewerUrl ?? null

  return (
    <Page
      title="メールテンプレート"
      subtitle="お客様に送るメールの件名・本文・署名を編集できます。{{変数名}} の部分は送信時に契約の内容に置き換わります。"
      primaryAction={{
        content: '保存',
        onAction: () => void editor.save(),
        disabled: !dirty || saving,
        loading: saving,
      }}
      secondaryActions={[
        {
          content: '初期設定に戻す',
          onAction: () => void editor.reset(),
          disabled: !loaded?.customized || saving,
        },
      ]}
    >
      <LeaveGuard when={dirty} />
      {list.error && !list.data ? (
        <LoadErrorState title="メールテンプレートを読み込めませんでした" error={list.error} onRetry={retry} />
      ) : (
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <Card>
                <div data-testid="mail-template-select">
                  <Select
                    label="メールの種類"
                    options={options}
                    value={type}
                    onChange={editor.setType}
                    disabled={dirty}
                    helpText={dirty ? '保存するか初期設定に戻すと、ほかのメールを選べます' : undefined}
                  />
                </div>
              </Card>
              {template.error && !loaded ? (
                <LoadErrorState
                  title="テンプレートを読み込めませんでした"
                  error={template.error}
                  onRetry={retry}
                />
              ) : !loaded || !draft ? (
                <Card>
                  <LoadingState lines={8} />
                </Card>
              ) : (
                <TemplateEditor
                  template={loaded}
                  draft={draft}
                  problem={editor.problem}
                  onChange={editor.setDraft}
                />
              )}
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              {loaded ? <VariablesCard template={loaded} /> : null}
              <TestMailCard type={type} disabled={dirty} viewerUrl={viewer} />
              <ShopMailCard />
            </BlockStack>
          </Layout.Section>
        </Layout>
      )}
    </Page>
  )
}

function TemplateEditor(props: {
  template: MailTemplateResponse
  draft: Draft
  problem: string | null
  onChange: (draft: Draft) => void
}) {
  const { template, draft, problem, onChange } = props
  return (
    <>
      <Card>
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {template.label}
            </Text>
            {template.customized ? <Badge tone="info">編集済み</Badge> : <Badge>初期設定</Badge>}
          </InlineStack>
          <div data-testid="mail-template-title">
            <TextField
              label="件名"
              value={draft.title}
              onChange={(title) => onChange({ ...draft, title })}
              autoComplete="off"
              maxLength={200}
            />
          </div>
          <div data-testid="mail-template-body">
            <TextField
              label="本文"
              value={draft.body}
              onChange={(body) => onChange({ ...draft, body })}
              multiline={12}
              autoComplete="off"
              maxLength={10000}
              error={problem ?? undefined}
            />
          </div>
          <div data-testid="mail-template-signature">
            <TextField
              label="署名"
              value={draft.signature}
              onChange={(signature) => onChange({ ...draft, signature })}
              multiline={3}
              autoComplete="off"
              maxLength={1000}
            />
          </div>
        </BlockStack>
      </Card>
      <SectionCard title="プレビュー（保存済みの文面・サンプルの契約）" gap="200">
        <Text as="p" fontWeight="semibold">
          <span data-testid="mail-template-preview-subject">{template.preview.subject}</span>
        </Text>
        <Box background="bg-surface-secondary" padding="300" borderRadius="200">
          <pre
            data-testid="mail-template-preview"
            style={{ whiteSpace: 'pre-wrap', margin: 0, fontFamily: 'inherit' }}
          >
            {template.preview.text}
          </pre>
        </Box>
      </SectionCard>
    </>
  )
}

function VariablesCard({ template }: { template: MailTemplateResponse }) {
  return (
    <SectionCard title="使える変数" gap="200">
      {template.variables.map((v) => (
        <InlineStack key={v.name} gap="200" wrap={false}>
          <code>{`{{${v.name}}}`}</code>
          <Text as="span" tone="subdued">
            {v.label}
          </Text>
        </InlineStack>
      ))}
      <Text as="p" tone="subdued">
        {'{{#変数名}}…{{/変数名}} で囲んだ部分は、その値があるときだけ表示されます。'}
      </Text>
    </SectionCard>
  )
}
