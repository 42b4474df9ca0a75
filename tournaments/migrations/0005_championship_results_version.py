from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_audit_entry'),
    ]

    operations = [
        migrations.AddField(
            model_name='championship',
            name='results_version',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='versió dels resultats'),
        ),
        migrations.AddField(
            model_name='championship',
            name='results_changed_at',
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name='resultats canviats el'),
        ),
    ]
