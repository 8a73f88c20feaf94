# One newscrawl worker: `scrapy crawl news` with the project's pinned requirements.
# Built by docker-compose.yml, which runs N of these against one Redis (docs/distributed.md).
FROM python:3.11-slim
WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# a non-editable install carries the model inside the package (setup.py)
RUN pip install --no-cache-dir --no-deps .
ENV SCRAPY_SETTINGS_MODULE=newscrawl.settings
WORKDIR /work
ENTRYPOINT ["scrapy"]
CMD ["crawl", "news"]
