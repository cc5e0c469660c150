"""accounts, their secrets, sign-in failures; who logged a change

The site takes reports in: organisers and officers sign in to accounts (`accounts`, the
password as its argon2 hash), hold secrets kept as digests alone (`account_secrets`: page
sessions, API tokens, one-time password links), and failed sign-ins are counted in the
database so that every worker throttles them alike (`sign_in_failures`). The log records
the account and address of a change made on the web.

Revision ID: 63fec91cb00b
Revises: 5c8fea625cb5
Create Date: 2026-12-04 21:51:53.585865

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "63fec91cb00b"
down_revision: str | None = "5c8fea625cb5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column(
            "role",
            sa.Enum("reader", "organiser", "officer", name="role", native_enum=False),
            nullable=False,
        ),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("disabled_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint(
            "role = 'reader' OR role = 'organiser' OR role = 'officer'",
            name=op.f("ck_accounts_role"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("email", name=op.f("uq_accounts_email")),
    )
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("address", sa.String(length=45), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_failures")),
    )
    with op.batch_alter_table("sign_in_failures", schema=None) as batch_op:
        batch_op.create_index("ix_sign_in_failures_address_at", ["address", "at"], unique=False)
        batch_op.create_index("ix_sign_in_failures_email_at", ["email", "at"], unique=False)

    op.create_table(
        "account_secrets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column(
            "kind",
            sa.Enum("session", "token", "password-link", name="secret_kind", native_enum=False),
            nullable=False,
        ),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=True),
        sa.Column(
            "role",
            sa.Enum("reader", "organiser", "officer", name="role", native_enum=False),
            nullable=True,
        ),
        sa.Column("address", sa.String(length=45), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint(
            "kind = 'session' OR kind = 'token' OR kind = 'password-link'",
            name=op.f("ck_account_secrets_secret_kind"),
        ),
        sa.CheckConstraint(
            "role = 'reader' OR role = 'organiser' OR role = 'officer'",
            name=op.f("ck_account_secrets_role"),
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_account_secrets_account_id_accounts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_secrets")),
        sa.UniqueConstraint("digest", name=op.f("uq_account_secrets_digest")),
    )
    with op.batch_alter_table("account_secrets", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_account_secrets_account_id"), ["account_id"], unique=False
        )

    with op.batch_alter_table("log_entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("address", sa.String(length=45), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_log_entries_account_id_accounts"), "accounts", ["account_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("log_entries", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_log_entries_account_id_accounts"), type_="foreignkey"
        )
        batch_op.drop_column("address")
        batch_op.drop_column("account_id")

    with op.batch_alter_table("account_secrets", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_secrets_account_id"))

    op.drop_table("account_secrets")
    with op.batch_alter_table("sign_in_failures", schema=None) as batch_op:
        batch_op.drop_index("ix_sign_in_failures_email_at")
        batch_op.drop_index("ix_sign_in_failures_address_at")

    op.drop_table("sign_in_failures")
    op.drop_table("accounts")
