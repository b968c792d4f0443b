import { Button, Link } from '@shopify/polaris'
import { useState } from 'react'
import { api } from '../../app/api.ts'
import { EmailField } from '../../app/email-field.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useAction } from '../../app/use-action.ts'

/** テスト送信: the saved template with a sample contract, to an address the merchant types. */
export function TestMailCard({
  type,
  disabled,
  viewerUrl,
}: {
  type: string
  disabled: boolean
  viewerUrl: string | null
}) {
  const ui = useUiState()
  const [email, setEmail] = useState('')
  const { busy: sending, error, run } = useAction({ inline: true })

  const send = () =>
    run('run', async () => {
      const sent = await api('POST /test-mail/:type', { params: { type }, body: { email } })
      ui.showToast(
        sent.status === 'failed' || sent.status === 'pending'
          ? `${sent.to} への送信に失敗しました（自動で再送します）`
          : `${sent.to} にテストメールを送信しました`,
        { error: sent.status === 'failed' },
      )
    })

  return (
    <SectionCard title="テスト送信" gap="300">
      <EmailField
        testId="test-mail-email"
        label="送信先メールアドレス"
        value={email}
        onChange={setEmail}
        error={error}
        helpText={disabled ? '保存してから送信してください' : '保存済みの文面をサンプルの契約で送ります'}
      />
      <div data-testid="test-mail-send">
        <Button onClick={() => void send()} loading={sending} disabled={disabled || email.trim() === ''}>
          テストメールを送信
        </Button>
      </div>
      <MailViewerLink url={viewerUrl} />
    </SectionCard>
  )
}

/** The local mail catcher's page (embedded default only), where the sent mail can be read. */
function MailViewerLink({ url }: { url: string | null }) {
  if (!url) return null
  return (
    <Link url={url} target="_blank">
      送信したメールを見る（ローカルのメールサーバー）
    </Link>
  )
}
