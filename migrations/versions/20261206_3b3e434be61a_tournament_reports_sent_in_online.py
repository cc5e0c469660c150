"""tournament reports sent in online: reports, their versions, findings, acknowledgements

Organisers upload tournament reports and an officer accepts them (`ledger.core.reports`):
`reports` (one event in one pool, its state and the version accepted), `report_versions`
(each file as uploaded, kept whole), `report_findings` (what each version's check found, in
three tiers) and `report_acknowledgements` (a warning acknowledged with the organiser's
note). A report's history is its entries in the log: `log_entries.report_id`.

Revision ID: 3b3e434be61a
Revises: e3b9d0c41f7a
Create Date: 2026-12-06 09:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3b3e434be61a"
down_revision: str | None = "e3b9d0c41f7a"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "pool",
            sa.Enum("standard", "rapid", "blitz", name="pool", native_enum=False),
            nullable=False,
        ),
        sa.Column("event", sa.String(length=200), nullable=True),
        sa.Column("organiser_id", sa.Integer(), nullable=False),
        sa.Column(
            "state",
            sa.Enum(
                "draft",
                "submitted",
                "returned",
                "accepted",
                "rejected",
                "withdrawn",
                name="report_state",
                native_enum=False,
            ),
            nullable=False,
        ),
        sa.Column("period", sa.String(length=7), nullable=True),
        sa.Column("accepted_version", sa.Integer(), nullable=True),
        sa.Column("import_id", sa.Integer(), nullable=True),
        sa.Column(
            "rejected_as",
            sa.Enum(
                "duplicate",
                "not-ratable",
                "unconfirmed",
                "other",
                name="rejected_as",
                native_enum=False,
            ),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("received_at", sa.DateTime(), nullable=True),
        sa.Column("submitted_at", sa.DateTime(), nullable=True),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint(
            "pool = 'standard' OR pool = 'rapid' OR pool = 'blitz'", name=op.f("ck_reports_pool")
        ),
        sa.CheckConstraint(
            "rejected_as = 'duplicate' OR rejected_as = 'not-ratable' "
            "OR rejected_as = 'unconfirmed' OR rejected_as = 'other'",
            name=op.f("ck_reports_rejected_as"),
        ),
        sa.CheckConstraint(
            "state = 'draft' OR state = 'submitted' OR state = 'returned' "
            "OR state = 'accepted' OR state = 'rejected' OR state = 'withdrawn'",
            name=op.f("ck_reports_report_state"),
        ),
        sa.ForeignKeyConstraint(
            ["import_id"],
            ["imports.id"],
            name=op.f("fk_reports_import_id_imports"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["organiser_id"], ["accounts.id"], name=op.f("fk_reports_organiser_id_accounts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    with op.batch_alter_table("reports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_reports_organiser_id"), ["organiser_id"], unique=False)
        batch_op.create_index("ix_reports_pool_event", ["pool", "event"], unique=False)
        batch_op.create_index(
            "ix_reports_state_submitted_at", ["state", "submitted_at"], unique=False
        )

    op.create_table(
        "report_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("report_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column(
            "format",
            sa.Enum("trf", "pgn", "csv", name="report_format", native_enum=False),
            nullable=False,
        ),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(length=200), nullable=True),
        sa.Column("end_date", sa.Date(), nullable=True),
        sa.Column("period", sa.String(length=7), nullable=True),
        sa.Column("uploaded_at", sa.DateTime(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("operator", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "format = 'trf' OR format = 'pgn' OR format = 'csv'",
            name=op.f("ck_report_versions_report_format"),
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_report_versions_account_id_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["report_id"], ["reports.id"], name=op.f("fk_report_versions_report_id_reports")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_versions")),
        sa.UniqueConstraint(
            "report_id", "number", name=op.f("uq_report_versions_report_id_number")
        ),
    )
    op.create_table(
        "report_findings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column(
            "tier",
            sa.Enum("error", "warning", "note", name="tier", native_enum=False),
            nullable=False,
        ),
        sa.Column("code", sa.String(length=40), nullable=False),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("field", sa.String(length=40), nullable=True),
        sa.Column("message", sa.String(length=1000), nullable=False),
        sa.Column("subject", sa.String(length=200), nullable=True),
        sa.CheckConstraint(
            "tier = 'error' OR tier = 'warning' OR tier = 'note'",
            name=op.f("ck_report_findings_tier"),
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["report_versions.id"],
            name=op.f("fk_report_findings_version_id_report_versions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_findings")),
    )
    with op.batch_alter_table("report_findings", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_report_findings_version_id"), ["version_id"], unique=False
        )

    op.create_table(
        "report_acknowledgements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("finding_id", sa.Integer(), nullable=False),
        sa.Column("note", sa.String(length=1000), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("operator", sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_report_acknowledgements_account_id_accounts"),
        ),
        sa.ForeignKeyConstraint(
            ["finding_id"],
            ["report_findings.id"],
            name=op.f("fk_report_acknowledgements_finding_id_report_findings"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_acknowledgements")),
        sa.UniqueConstraint("finding_id", name=op.f("uq_report_acknowledgements_finding_id")),
    )
    with op.batch_alter_table("log_entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("report_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_log_entries_report_id"), ["report_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_log_entries_report_id_reports"), "reports", ["report_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("log_entries", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_log_entries_report_id_reports"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_log_entries_report_id"))
        batch_op.drop_column("report_id")

    op.drop_table("report_acknowledgements")
    with op.batch_alter_table("report_findings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_report_findings_version_id"))

    op.drop_table("report_findings")
    op.drop_table("report_versions")
    with op.batch_alter_table("reports", schema=None) as batch_op:
        batch_op.drop_index("ix_reports_state_submitted_at")
        batch_op.drop_index("ix_reports_pool_event")
        batch_op.drop_index(batch_op.f("ix_reports_organiser_id"))

    op.drop_table("reports")
