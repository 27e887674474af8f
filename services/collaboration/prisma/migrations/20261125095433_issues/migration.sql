-- CreateTable
CREATE TABLE "user" (
    "id" BIGINT NOT NULL,
    "login" TEXT NOT NULL,
    "lower_name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'user',
    "profile" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "issue_index" (
    "repository_id" BIGINT NOT NULL,
    "max_index" BIGINT NOT NULL DEFAULT 0,
    "open_issues" BIGINT NOT NULL DEFAULT 0,
    "closed_issues" BIGINT NOT NULL DEFAULT 0,
    "open_pulls" BIGINT NOT NULL DEFAULT 0,
    "closed_pulls" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "issue_index_pkey" PRIMARY KEY ("repository_id")
);

-- CreateTable
CREATE TABLE "issue" (
    "id" BIGSERIAL NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "index" BIGINT NOT NULL,
    "poster_id" BIGINT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "is_closed" BOOLEAN NOT NULL DEFAULT false,
    "is_pull" BOOLEAN NOT NULL DEFAULT false,
    "is_locked" BOOLEAN NOT NULL DEFAULT false,
    "milestone_id" BIGINT,
    "due_date" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "pin_order" INTEGER NOT NULL DEFAULT 0,
    "ref" TEXT NOT NULL DEFAULT '',
    "content_version" INTEGER NOT NULL DEFAULT 0,
    "comments" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "issue_assignee" (
    "issue_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,

    CONSTRAINT "issue_assignee_pkey" PRIMARY KEY ("issue_id","user_id")
);

-- CreateTable
CREATE TABLE "issue_mention" (
    "issue_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,

    CONSTRAINT "issue_mention_pkey" PRIMARY KEY ("issue_id","user_id")
);

-- CreateTable
CREATE TABLE "label" (
    "id" BIGSERIAL NOT NULL,
    "repository_id" BIGINT,
    "org_id" BIGINT,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "exclusive" BOOLEAN NOT NULL DEFAULT false,
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "label_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "issue_label" (
    "issue_id" BIGINT NOT NULL,
    "label_id" BIGINT NOT NULL,

    CONSTRAINT "issue_label_pkey" PRIMARY KEY ("issue_id","label_id")
);

-- CreateTable
CREATE TABLE "milestone" (
    "id" BIGSERIAL NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "is_closed" BOOLEAN NOT NULL DEFAULT false,
    "open_issues" INTEGER NOT NULL DEFAULT 0,
    "closed_issues" INTEGER NOT NULL DEFAULT 0,
    "due_date" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "milestone_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "user_lower_name_idx" ON "user"("lower_name");

-- CreateIndex
CREATE INDEX "issue_repository_id_is_pull_is_closed_id_idx" ON "issue"("repository_id", "is_pull", "is_closed", "id" DESC);

-- CreateIndex
CREATE INDEX "issue_poster_id_idx" ON "issue"("poster_id");

-- CreateIndex
CREATE INDEX "issue_milestone_id_idx" ON "issue"("milestone_id");

-- CreateIndex
CREATE UNIQUE INDEX "issue_repository_id_index_key" ON "issue"("repository_id", "index");

-- CreateIndex
CREATE INDEX "issue_assignee_user_id_idx" ON "issue_assignee"("user_id");

-- CreateIndex
CREATE INDEX "issue_mention_user_id_idx" ON "issue_mention"("user_id");

-- CreateIndex
CREATE INDEX "label_repository_id_idx" ON "label"("repository_id");

-- CreateIndex
CREATE INDEX "label_org_id_idx" ON "label"("org_id");

-- CreateIndex
CREATE INDEX "issue_label_label_id_idx" ON "issue_label"("label_id");

-- CreateIndex
CREATE INDEX "milestone_repository_id_idx" ON "milestone"("repository_id");

-- AddForeignKey
ALTER TABLE "issue" ADD CONSTRAINT "issue_milestone_id_fkey" FOREIGN KEY ("milestone_id") REFERENCES "milestone"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_assignee" ADD CONSTRAINT "issue_assignee_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_mention" ADD CONSTRAINT "issue_mention_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_label" ADD CONSTRAINT "issue_label_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_label" ADD CONSTRAINT "issue_label_label_id_fkey" FOREIGN KEY ("label_id") REFERENCES "label"("id") ON DELETE CASCADE ON UPDATE CASCADE;
